import type { GovernanceActionResult } from "../../../generated/types.ts";
import type { CallReply, Client, TestApp } from "../../support/app.ts";
import { insertCompany, person, startFinanceApp } from "../../support/entities.ts";
import { refusedNoWrite, sql } from "../../support/helpers.ts";

/** A cooperative with a director, the member concerned and another member; fresh per test. */
export interface Coop {
  company: string;
  owner: Client;
  director: { client: Client; resident: string };
  member: { client: Client; resident: string };
  other: { client: Client; resident: string };
}

let n = 0;

export async function coop(t: TestApp, extra: Record<string, unknown> = {}): Promise<Coop> {
  const owner = await t.register(`discipline-owner${++n}@example.org`);
  const company = await insertCompany(t, owner.userId, { company_type: "coop_standard_fzc", ...extra });
  return {
    company,
    owner,
    director: await person(t, company, "director"),
    member: await person(t, company, "founding_member"),
    other: await person(t, company, "platinum_member"),
  };
}

export const DAY = 24 * 3600;

/** A test app whose sessions outlive the chain's deadlines (the tests move the clock by weeks). */
export function disciplineApp(overrides: Parameters<typeof startFinanceApp>[0] = {}): Promise<TestApp> {
  return startFinanceApp({ accessTokenTtlS: 400 * DAY, ...overrides });
}
export const content = (what: string) => JSON.stringify({ note: what });

export async function notice(t: TestApp, c: Coop): Promise<GovernanceActionResult> {
  t.clock.advance(1);
  return c.director.client.callOk("governanceservice.issue_notice", {
    company_id: c.company,
    subject_resident_id: c.member.resident,
    content: content("late dues"),
    created_by: c.director.resident,
  });
}

export async function respond(t: TestApp, c: Coop, parent: string): Promise<GovernanceActionResult> {
  t.clock.advance(1);
  return c.member.client.callOk("governanceservice.submit_response", {
    parent_action_id: parent,
    content: content("paid now"),
    created_by: c.member.resident,
  });
}

export async function review(t: TestApp, c: Coop, parent: string): Promise<GovernanceActionResult> {
  t.clock.advance(1);
  return c.director.client.callOk("governanceservice.conduct_review", {
    parent_action_id: parent,
    content: content("reviewed"),
    created_by: c.director.resident,
  });
}

export async function decide(
  t: TestApp,
  c: Coop,
  parent: string,
  outcome: GovernanceActionResult["outcome"] & string,
  role: GovernanceActionResult["decided_by_role"] & string = "governance_board",
): Promise<GovernanceActionResult> {
  t.clock.advance(1);
  return c.director.client.callOk("governanceservice.issue_decision", {
    parent_action_id: parent,
    outcome,
    decided_by_role: role,
    content: content("decided"),
    created_by: c.director.resident,
  });
}

export async function appeal(t: TestApp, c: Coop, parent: string): Promise<GovernanceActionResult> {
  t.clock.advance(1);
  return c.member.client.callOk("governanceservice.file_appeal", {
    parent_action_id: parent,
    content: content("unfair"),
    created_by: c.member.resident,
  });
}

/** A chain up to a review-parented decision with `outcome`. */
export async function decided(
  t: TestApp,
  c: Coop,
  outcome: GovernanceActionResult["outcome"] & string,
): Promise<GovernanceActionResult> {
  const n1 = await notice(t, c);
  const r = await respond(t, c, n1.sid);
  const rv = await review(t, c, r.sid);
  return decide(t, c, rv.sid, outcome);
}

/** Every table a discipline call may write (audit rows aside: refusals of a known caller are audited). */
export const chainWrites = (t: TestApp) => async () => ({
  actions: await sql(t, `select * from "governance_action" order by sid`),
  roles: await sql(t, `select sid, valid_to from "company_role" order by sid`),
});

export const refused = (t: TestApp, call: () => Promise<CallReply<unknown>>, code: number, variant: string) =>
  refusedNoWrite(chainWrites(t), call, code, { type: "GovernanceError", variant });

/** The audit rows of an action, oldest first. */
export const auditRows = (t: TestApp, action: string) =>
  sql(t, `select * from "user_audit_log" where action = ? order by sid`, [action]);
