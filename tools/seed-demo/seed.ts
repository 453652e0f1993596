import type { Progress } from "../progress.ts";
import { ensureInvoices, ensureProposal } from "./business.ts";
import { DemoError, type RpcClient, type Session, Skipped } from "./client.ts";
import { ensureDraft, ensureFormed, type Member } from "./formation.ts";
import {
  AGENT_APPROVAL_PATTERN,
  AGENT_KEY_NAME,
  COMPANY,
  COOPERATIVE,
  DEMO_PASSWORD,
  type DemoPerson,
  PEOPLE,
  RESIDENT_PLAN,
  SCRIPT_KEY_NAME,
} from "./plan.ts";
import { activate, ensureResident, type SeedContext, signIn } from "./residents.ts";

export type { Member } from "./formation.ts";
export type { SeedContext } from "./residents.ts";

/** One line of the report: what a step found or made. */
export interface SeedLine {
  created: boolean;
  text: string;
}

/** The number of progress steps `seedDemo` ticks. */
export const SEED_STEPS = PEOPLE.length * 3 + 2 + 2 + 1 + 2 + 2;

/**
 * Fills the demo zone through the public operations only (JSON-RPC, and the sandbox providers' signed webhooks),
 * each step first looking for what it would make (by the demo emails, key names, entity names, invoice descriptions
 * and proposal title), so a second run creates nothing.
 */
export async function seedDemo(ctx: SeedContext, bar: Progress): Promise<SeedLine[]> {
  const lines: SeedLine[] = [];
  const members = new Map<DemoPerson["key"], Member>();
  for (const person of PEOPLE) {
    const { session, userId, created } = await signIn(ctx.rpc, person);
    lines.push({ created, text: `user ${person.email} (password ${DEMO_PASSWORD})` });
    bar.tick(1, person.email);
    const resident = await ensureResident(session, person);
    lines.push({ created: resident.created, text: `resident ${resident.residentId} of ${person.email}` });
    members.set(person.key, { person, session, userId, residentId: resident.residentId });
    bar.tick(1, resident.residentId);
  }
  let allActive = true;
  for (const person of PEOPLE) {
    const m = member(members, person.key);
    const line = await ensureActive(ctx, m);
    allActive &&= line.active;
    lines.push(line);
    bar.tick(1, `${m.residentId} active`);
  }
  const alice = member(members, "alice");
  lines.push(await ensureKey(alice.session, SCRIPT_KEY_NAME, {}));
  bar.tick(1, SCRIPT_KEY_NAME);
  const agent = await ensureKey(alice.session, AGENT_KEY_NAME, {
    mcp_scope: "readwrite",
    approval_required_tools: AGENT_APPROVAL_PATTERN,
  });
  lines.push(agent);
  bar.tick(1, AGENT_KEY_NAME);
  const [bob, carol, dave] = [member(members, "bob"), member(members, "carol"), member(members, "dave")];
  lines.push(await ensureDraft(alice, [bob], COMPANY, (m) => (m === alice ? 500 : 100)));
  bar.tick(1, COMPANY.entity_name);
  lines.push(await ensureDraft(carol, [dave, alice], COOPERATIVE, () => 0));
  bar.tick(1, COOPERATIVE.entity_name);
  lines.push(await ensurePendingApproval(ctx.rpc, alice, agent.key));
  bar.tick(1, "approval");
  if (!allActive) {
    lines.push({ created: false, text: "skipped: company, cooperative, invoices and proposal (residents not active)" });
    bar.tick(4, "skipped");
    return lines;
  }
  try {
    const company = await ensureFormed(ctx, alice, COMPANY);
    lines.push(company.line);
    bar.tick(1, COMPANY.entity_name);
    const coop = await ensureFormed(ctx, carol, COOPERATIVE);
    lines.push(coop.line);
    bar.tick(1, COOPERATIVE.entity_name);
    lines.push(...(await ensureInvoices(alice, company.companyId)));
    bar.tick(1, "invoices");
    lines.push(...(await ensureProposal([carol, dave, alice], coop.companyId)));
    bar.tick(1, "proposal");
  } catch (e) {
    if (!(e instanceof Skipped)) throw e;
    lines.push({ created: false, text: `skipped: ${e.message}` });
  }
  return lines;
}

function member(members: Map<DemoPerson["key"], Member>, key: DemoPerson["key"]): Member {
  const found = members.get(key);
  if (!found) throw new DemoError(`demo member ${key} missing`);
  return found;
}

/** The member's resident made active (residents.ts `activate`), or a line saying what kept it pending. */
async function ensureActive(ctx: SeedContext, m: Member): Promise<SeedLine & { active: boolean }> {
  const { status } = await m.session.ok("residentservice.get", { resident_id: m.residentId });
  const label = `resident ${m.residentId} of ${m.person.email}`;
  if (status === "active") return { created: false, active: true, text: `${label} active` };
  if (status !== "pending") return { created: false, active: false, text: `${label} is ${status}: left as it is` };
  try {
    const paid = await activate(ctx, m.session, m.person, m.residentId);
    const topup = paid.topup > 0 ? ` after a sandbox top-up of ${paid.topup} USD` : "";
    const text = `${label} active: email verified, KYC approved by the sandbox, ${RESIDENT_PLAN} paid from the wallet${topup}`;
    return { created: true, active: true, text };
  } catch (e) {
    if (!(e instanceof Skipped)) throw e;
    return { created: false, active: false, text: `${label} stays pending: ${e.message}` };
  }
}

async function ensureKey(session: Session, name: string, policy: Record<string, unknown>) {
  const keys = (await session.ok("apikeyservice.list_personal")).items;
  const found = keys.find((k) => k.name === name);
  if (found) return { created: false, key: null, text: `${name} ${found.key_id} (its key was shown when created)` };
  const made = await session.ok("apikeyservice.generate_personal", { name, password: DEMO_PASSWORD, ...policy });
  const key = made.api_key;
  return { created: true, key, text: `${name} ${made.key_id}: ${key} (shown once)` };
}

/** The agent key asks to change Alice's phone: its approval pattern makes that wait in her approvals inbox. */
async function ensurePendingApproval(rpc: RpcClient, alice: Member, agentKey: string | null) {
  const pending = (await alice.session.ok("mcpapprovalservice.list_pending")).items;
  const label = `pending approval of ${AGENT_APPROVAL_PATTERN} in the inbox of ${alice.person.email}`;
  if (pending.some((a) => a.tool_name === AGENT_APPROVAL_PATTERN)) return { created: false, text: label };
  if (agentKey === null) {
    return { created: false, text: `${label}: none pending, and the agent key's secret is no longer shown` };
  }
  const asked = await rpc.call(
    "residentservice.update",
    { resident_id: alice.residentId, data: { phone: "+255 700 100 009" } },
    { "x-api-key": agentKey },
  );
  if (!("error" in asked) || asked.error.data?.variant !== "ApprovalRequired") {
    throw new DemoError(`the agent key's call did not wait for approval: ${JSON.stringify(asked)}`);
  }
  return { created: true, text: `${label} (${String(asked.error.data["approval_id"])})` };
}
