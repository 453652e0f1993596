import type { ShareholderData } from "../../generated/types.ts";
import { COMPANY, COOPERATIVE } from "../../tools/seed-demo/plan.ts";
import type { Client, TestApp } from "../support/app.ts";
import { member } from "../support/entities.ts";
import { count, sql } from "../support/helpers.ts";

/** A signed-in user with a personal resident. */
export type Person = { client: Client; resident: string };

/** The formation forms of a cooperative and a company: the demo seed's (tools/seed-demo/plan.ts). */
export const COOP_DATA = COOPERATIVE.template_data;
export const COMPANY_DATA = COMPANY.template_data;

export function coopRow(p: Person, name = "Member"): ShareholderData {
  return { name, email: p.client.email, resident_id: null, units: 0, role: "founding_member" };
}

export function shareRow(p: Person, units: number, name = "Holder"): ShareholderData {
  return { name, email: p.client.email, resident_id: null, units, role: "shareholder" };
}

/** A cooperative draft of `creator` with `invitees` as founding members (the creator's own row first). */
export function coopDraft(creator: Person, invitees: Person[]) {
  return creator.client.callOk("entitydraftservice.create_draft", coopParams(creator, invitees));
}

export function coopParams(creator: Person, invitees: Person[]) {
  return {
    entity_type: "cooperative",
    entity_name: "Makers Cooperative",
    company_type: "coop_standard_fzc" as const,
    template_data: JSON.stringify(COOP_DATA),
    shareholders: [coopRow(creator, "Founder"), ...invitees.map((p, i) => coopRow(p, `Member ${i + 1}`))],
  };
}

/** An untyped call (malformed params too) as a typed reply, for refusal checks. */
export async function rawCall(p: Person, method: string, params: unknown) {
  const r = await p.client.rpc(method, params);
  return r.error ? { error: r.error } : { result: r.result as unknown };
}

/** A company draft of `creator` with `invitees` as shareholders of 100 units each. */
export function companyDraft(creator: Person, invitees: Person[]) {
  return creator.client.callOk("entitydraftservice.create_draft", {
    entity_type: "company",
    entity_name: "Harbour Software FZC",
    company_type: "startup_fzc",
    template_data: JSON.stringify(COMPANY_DATA),
    shareholders: [shareRow(creator, 500, "Founder"), ...invitees.map((p) => shareRow(p, 100))],
  });
}

export async function people(t: TestApp, n: number): Promise<Person[]> {
  const out: Person[] = [];
  for (let i = 0; i < n; i += 1) out.push(await member(t));
  return out;
}

/** The invitation of `p` on the draft in the current round (the newest one). */
export async function invitationOf(p: Person, draftId: string): Promise<string> {
  const mine = await p.client.callOk("entitydraftservice.get_my_invitations", {});
  const found = mine.items.find((i) => i.draft_id === draftId);
  if (!found) throw new Error(`no invitation for ${p.client.email}`);
  return found.sid;
}

/** Everything the draft operations may write, to compare before and after a refusal. */
export async function draftTables(t: TestApp) {
  return {
    drafts: await sql(t, `select * from entity_draft order by sid`),
    invitations: await sql(t, `select * from entity_invitation order by sid`),
    signatures: await count(t, "document_signature"),
    messages: await count(t, "user_message"),
    outbox: await count(t, "email_outbox"),
    companies: await count(t, "zone_company"),
    roles: await count(t, "company_role"),
    events: await count(t, "coop_event"),
  };
}
