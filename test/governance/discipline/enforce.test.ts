import { beforeAll, describe, expect, test } from "vitest";
import type { GovernanceActionResult } from "../../../generated/types.ts";
import type { TestApp } from "../../support/app.ts";
import { insertRole, person } from "../../support/entities.ts";
import { sql } from "../../support/helpers.ts";
import {
  appeal,
  auditRows,
  type Coop,
  chainWrites,
  coop,
  decide,
  decided,
  disciplineApp,
  notice,
  refused,
} from "./support.ts";

let t: TestApp;

beforeAll(async () => {
  t = await disciplineApp();
});

const enforce = (c: Coop, decisionId: string) => () =>
  c.director.client.call("governanceservice.enforce_decision", {
    decision_id: decisionId,
    enforced_by: c.director.resident,
  });

const openRoles = async (c: Coop, subject: string) =>
  sql(t, `select sid from "company_role" where company_id = ? and subject_id = ? and valid_to is null order by sid`, [
    c.company,
    subject,
  ]);

/** A removal whose appeal window has passed. */
async function finalRemoval(c: Coop): Promise<GovernanceActionResult> {
  const d = await decided(t, c, "remove");
  t.clock.set(d.due_by);
  return d;
}

describe("enforce_decision", () => {
  test("closes the member's current roles, writes one audit row and no GovernanceAction row", async () => {
    const c = await coop(t);
    await person(t, c.company, "director"); // someone else's role stays open
    await insertRole(t, c.company, c.member.resident, "shareholder");
    const d = await finalRemoval(c);
    const roles = (await openRoles(c, c.member.resident)).map((r) => r.sid);
    expect(roles).toHaveLength(2);
    const actionsBefore = await sql(t, `select * from "governance_action" order by sid`);
    const auditsBefore = (await auditRows(t, "enforce_decision")).length;
    const r = await c.director.client.callOk("governanceservice.enforce_decision", {
      decision_id: d.sid,
      enforced_by: c.director.resident,
    });
    expect({ ...r, closed_role_ids: [...r.closed_role_ids].sort() }).toEqual({
      decision_id: d.sid,
      company_id: c.company,
      subject_resident_id: c.member.resident,
      closed_role_ids: roles,
      already_enforced: false,
      enforced_at: t.clock.now().toISOString(),
    });
    expect(await openRoles(c, c.member.resident)).toEqual([]);
    const closed = await sql(t, `select valid_to from "company_role" where sid in (?, ?)`, roles);
    for (const row of closed) expect(new Date(row.valid_to).toISOString()).toBe(t.clock.now().toISOString());
    expect(await openRoles(c, c.director.resident)).toHaveLength(1);
    expect(await sql(t, `select * from "governance_action" order by sid`)).toEqual(actionsBefore);
    const audits = (await auditRows(t, "enforce_decision")).slice(auditsBefore);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ target_ref: d.sid, target_type: "governance_action", allowed: true });
  });

  test("repeating it is a no-op: already_enforced, nothing changed, no second audit row", async () => {
    const c = await coop(t);
    const d = await finalRemoval(c);
    const first = await c.director.client.callOk("governanceservice.enforce_decision", {
      decision_id: d.sid,
      enforced_by: c.director.resident,
    });
    // the member is admitted again later: a repeat must not close the new role
    t.clock.advance(60);
    await insertRole(t, c.company, c.member.resident, "founding_member", { valid_from: t.clock.now() });
    const audits = (await auditRows(t, "enforce_decision")).length;
    const writes = await chainWrites(t)();
    t.clock.advance(60);
    const again = await c.director.client.callOk("governanceservice.enforce_decision", {
      decision_id: d.sid,
      enforced_by: c.director.resident,
    });
    expect(again).toMatchObject({ closed_role_ids: [], already_enforced: true, enforced_at: first.enforced_at });
    expect(await chainWrites(t)()).toEqual(writes);
    expect((await auditRows(t, "enforce_decision")).length).toBe(audits);
  });

  test("an appeal ruling of dismiss denies the appeal and allows enforcement", async () => {
    const c = await coop(t);
    const d = await decided(t, c, "remove");
    const a = await appeal(t, c, d.sid);
    await decide(t, c, a.sid, "dismiss", "internal_appeals_committee");
    const r = await c.director.client.callOk("governanceservice.enforce_decision", {
      decision_id: d.sid,
      enforced_by: c.director.resident,
    });
    expect(r.closed_role_ids).toHaveLength(1);
    expect(await openRoles(c, c.member.resident)).toEqual([]);
  });

  test("any other appeal ruling sets the decision aside: NotEnforceable, for good", async () => {
    const c = await coop(t);
    const d = await decided(t, c, "remove");
    const a = await appeal(t, c, d.sid);
    await decide(t, c, a.sid, "warning", "internal_appeals_committee");
    await refused(t, enforce(c, d.sid), -32006, "NotEnforceable");
    t.clock.advance(200 * 24 * 3600);
    await refused(t, enforce(c, d.sid), -32006, "NotEnforceable");
    expect((await auditRows(t, "enforce_decision")).at(-1)).toMatchObject({ target_ref: d.sid, allowed: false });
    expect(await openRoles(c, c.member.resident)).toHaveLength(1);
  });

  test("a pending appeal or an open appeal window is InvalidState", async () => {
    const c = await coop(t);
    const d = await decided(t, c, "remove");
    await refused(t, enforce(c, d.sid), -32005, "InvalidState");
    await appeal(t, c, d.sid);
    t.clock.set(d.due_by);
    await refused(t, enforce(c, d.sid), -32005, "InvalidState");
  });

  test("outcomes other than remove are NotEnforceable; dismiss on a review means no discipline", async () => {
    const c = await coop(t);
    for (const outcome of ["dismiss", "warning", "probation", "suspension"] as const) {
      const d = await decided(t, c, outcome);
      t.clock.set(d.due_by);
      await refused(t, enforce(c, d.sid), -32006, "NotEnforceable");
    }
  });

  test("a row that is not a decision, or an appeal ruling, is InvalidState", async () => {
    const c = await coop(t);
    const n = await notice(t, c);
    await refused(t, enforce(c, n.sid), -32005, "InvalidState");
    const d = await decided(t, c, "remove");
    const a = await appeal(t, c, d.sid);
    const ruling = await decide(t, c, a.sid, "remove", "internal_appeals_committee");
    await refused(t, enforce(c, ruling.sid), -32005, "InvalidState");
  });

  test("a member who is not a director is Forbidden, a stranger NotFound", async () => {
    const c = await coop(t);
    const d = await finalRemoval(c);
    await refused(
      t,
      () =>
        c.other.client.call("governanceservice.enforce_decision", {
          decision_id: d.sid,
          enforced_by: c.other.resident,
        }),
      -32002,
      "Forbidden",
    );
    const stranger = await coop(t);
    await refused(
      t,
      () =>
        stranger.director.client.call("governanceservice.enforce_decision", {
          decision_id: d.sid,
          enforced_by: stranger.director.resident,
        }),
      -32003,
      "NotFound",
    );
  });
});

describe("list_actions", () => {
  test("directors see every chain, newest first; other members only their own", async () => {
    const c = await coop(t);
    const mine = await notice(t, c);
    t.clock.advance(1);
    const theirs = await c.director.client.callOk("governanceservice.issue_notice", {
      company_id: c.company,
      subject_resident_id: c.other.resident,
      content: JSON.stringify({ note: "other" }),
      created_by: c.director.resident,
    });
    const all = await c.director.client.callOk("governanceservice.list_actions", { company_id: c.company });
    expect(all.items.map((i) => i.sid)).toEqual([theirs.sid, mine.sid]);
    const own = await c.member.client.callOk("governanceservice.list_actions", { company_id: c.company });
    expect(own.items.map((i) => i.sid)).toEqual([mine.sid]);
    const filtered = await c.director.client.callOk("governanceservice.list_actions", {
      company_id: c.company,
      subject_resident_id: c.other.resident,
    });
    expect(filtered.items.map((i) => i.sid)).toEqual([theirs.sid]);
    const peek = await c.member.client.callOk("governanceservice.list_actions", {
      company_id: c.company,
      subject_resident_id: c.other.resident,
    });
    expect(peek.items).toEqual([]);
  });

  test("a caller without a role in the company is NotFound", async () => {
    const c = await coop(t);
    const stranger = await coop(t);
    const r = await stranger.director.client.call("governanceservice.list_actions", { company_id: c.company });
    expect("error" in r && r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });
});
