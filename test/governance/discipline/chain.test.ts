import { beforeAll, describe, expect, test } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { sql } from "../../support/helpers.ts";
import {
  appeal,
  auditRows,
  content,
  coop,
  DAY,
  decide,
  decided,
  disciplineApp,
  notice,
  refused,
  respond,
  review,
} from "./support.ts";

let t: TestApp;

beforeAll(async () => {
  t = await disciplineApp();
});

const plus = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY * 1000).toISOString();

describe("the chain notice -> response -> review -> decision -> appeal -> decision", () => {
  test("each step appends a row chained to its parent, due_by = the parent's due_by + the step's SLA", async () => {
    const c = await coop(t);
    const n = await notice(t, c);
    expect(n).toMatchObject({
      company_id: c.company,
      subject_resident_id: c.member.resident,
      kind: "notice",
      parent_action_sid: null,
      content: content("late dues"),
      due_by: plus(t.clock.now().toISOString(), 14),
      decided_at: null,
      decided_by_role: null,
      decided_by_subject_id: null,
      outcome: null,
      created_by: c.director.resident,
      created_at: t.clock.now().toISOString(),
    });
    const r = await respond(t, c, n.sid);
    expect(r).toMatchObject({ kind: "response", parent_action_sid: n.sid, due_by: plus(n.due_by, 14) });
    const rv = await review(t, c, r.sid);
    expect(rv).toMatchObject({ kind: "review", parent_action_sid: r.sid, due_by: plus(r.due_by, 14) });
    const d = await decide(t, c, rv.sid, "suspension");
    expect(d).toMatchObject({ kind: "decision", parent_action_sid: rv.sid, due_by: plus(rv.due_by, 14) });
    const a = await appeal(t, c, d.sid);
    expect(a).toMatchObject({ kind: "appeal", parent_action_sid: d.sid, due_by: plus(d.due_by, 30) });
    const ruling = await decide(t, c, a.sid, "dismiss", "internal_appeals_committee");
    expect(ruling).toMatchObject({ kind: "decision", parent_action_sid: a.sid, due_by: a.due_by });
    const rows = await sql(
      t,
      `select sid, kind, updated_at, created_at from "governance_action" where company_id = ?`,
      [c.company],
    );
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(new Date(row.updated_at)).toEqual(new Date(row.created_at));
  });

  test("decision fields are set on the decision row only", async () => {
    const c = await coop(t);
    const d = await decided(t, c, "warning");
    expect(d).toMatchObject({
      decided_at: t.clock.now().toISOString(),
      decided_by_role: "governance_board",
      decided_by_subject_id: c.director.resident,
      outcome: "warning",
    });
    const others = await sql(
      t,
      `select count(*) as n from "governance_action" where company_id = ? and kind <> 'decision'
       and (decided_at is not null or decided_by_role is not null or decided_by_subject_id is not null or outcome is not null)`,
      [c.company],
    );
    expect(Number(others[0].n)).toBe(0);
  });

  test("one governance_step audit row per step, allowed, on the step's parent (the notice: itself)", async () => {
    const c = await coop(t);
    const before = (await auditRows(t, "governance_step")).length;
    const n = await notice(t, c);
    const r = await respond(t, c, n.sid);
    const rows = (await auditRows(t, "governance_step")).slice(before);
    expect(rows.map((row) => [row.target_ref, row.target_type, row.allowed])).toEqual([
      [n.sid, "governance_action", true],
      [n.sid, "governance_action", true],
    ]);
    expect(rows.map((row) => row.subject_id)).toEqual([c.director.client.userId, c.member.client.userId]);
    expect(r.parent_action_sid).toBe(n.sid);
  });

  test("a review may follow a notice whose due_by passed without a response", async () => {
    const c = await coop(t);
    const n = await notice(t, c);
    t.clock.set(n.due_by);
    const rv = await review(t, c, n.sid);
    expect(rv).toMatchObject({ kind: "review", parent_action_sid: n.sid, due_by: plus(n.due_by, 14) });
  });

  test("the SLAs come from the configuration", async () => {
    const app = await disciplineApp({
      discipline: { ...t.config.discipline, slaDays: { ...t.config.discipline.slaDays, notice: 3, response: 5 } },
    });
    try {
      const c = await coop(app);
      const n = await notice(app, c);
      expect(n.due_by).toBe(plus(app.clock.now().toISOString(), 3));
      expect((await respond(app, c, n.sid)).due_by).toBe(plus(n.due_by, 5));
    } finally {
      t = await disciplineApp();
    }
  });
});

describe("steps out of order are refused (InvalidState), nothing written, the denial audited", () => {
  test("a review of a notice still awaiting its response", async () => {
    const c = await coop(t);
    const n = await notice(t, c);
    await refused(
      t,
      () =>
        c.director.client.call("governanceservice.conduct_review", {
          parent_action_id: n.sid,
          content: content("too early"),
          created_by: c.director.resident,
        }),
      -32005,
      "InvalidState",
    );
    const last = (await auditRows(t, "governance_step")).at(-1);
    expect(last).toMatchObject({ target_ref: n.sid, allowed: false });
  });

  test("a decision on a notice or a response, an appeal on a review", async () => {
    const c = await coop(t);
    const n = await notice(t, c);
    const r = await respond(t, c, n.sid);
    for (const parent of [n.sid, r.sid]) {
      await refused(
        t,
        () =>
          c.director.client.call("governanceservice.issue_decision", {
            parent_action_id: parent,
            outcome: "warning",
            decided_by_role: "governance_board",
            content: content("skip"),
            created_by: c.director.resident,
          }),
        -32005,
        "InvalidState",
      );
    }
    const rv = await review(t, c, r.sid);
    await refused(
      t,
      () =>
        c.member.client.call("governanceservice.file_appeal", {
          parent_action_id: rv.sid,
          content: content("skip"),
          created_by: c.member.resident,
        }),
      -32005,
      "InvalidState",
    );
  });

  test("a second response, a second review and a second decision on one parent", async () => {
    const c = await coop(t);
    const n = await notice(t, c);
    const r = await respond(t, c, n.sid);
    await refused(
      t,
      () =>
        c.member.client.call("governanceservice.submit_response", {
          parent_action_id: n.sid,
          content: content("again"),
          created_by: c.member.resident,
        }),
      -32005,
      "InvalidState",
    );
    const rv = await review(t, c, r.sid);
    await refused(
      t,
      () =>
        c.director.client.call("governanceservice.conduct_review", {
          parent_action_id: r.sid,
          content: content("again"),
          created_by: c.director.resident,
        }),
      -32005,
      "InvalidState",
    );
    await decide(t, c, rv.sid, "warning");
    await refused(
      t,
      () =>
        c.director.client.call("governanceservice.issue_decision", {
          parent_action_id: rv.sid,
          outcome: "remove",
          decided_by_role: "governance_board",
          content: content("again"),
          created_by: c.director.resident,
        }),
      -32005,
      "InvalidState",
    );
  });

  test("an appeal against a dismissal (no discipline) or against an appeal ruling", async () => {
    const c = await coop(t);
    const dismissed = await decided(t, c, "dismiss");
    const tryAppeal = (parent: string) => () =>
      c.member.client.call("governanceservice.file_appeal", {
        parent_action_id: parent,
        content: content("appeal"),
        created_by: c.member.resident,
      });
    await refused(t, tryAppeal(dismissed.sid), -32005, "InvalidState");
    const c2 = await coop(t);
    const d = await decided(t, c2, "probation");
    const a = await appeal(t, c2, d.sid);
    const ruling = await decide(t, c2, a.sid, "dismiss", "internal_appeals_committee");
    await refused(
      t,
      () =>
        c2.member.client.call("governanceservice.file_appeal", {
          parent_action_id: ruling.sid,
          content: content("again"),
          created_by: c2.member.resident,
        }),
      -32005,
      "InvalidState",
    );
  });

  test("a response or an appeal after the parent's due_by is Expired", async () => {
    const c = await coop(t);
    const n = await notice(t, c);
    t.clock.set(n.due_by);
    await refused(
      t,
      () =>
        c.member.client.call("governanceservice.submit_response", {
          parent_action_id: n.sid,
          content: content("late"),
          created_by: c.member.resident,
        }),
      -32005,
      "Expired",
    );
    const d = await decided(t, c, "remove");
    t.clock.set(d.due_by);
    await refused(
      t,
      () =>
        c.member.client.call("governanceservice.file_appeal", {
          parent_action_id: d.sid,
          content: content("late"),
          created_by: c.member.resident,
        }),
      -32005,
      "Expired",
    );
  });

  test("an unknown parent is NotFound", async () => {
    const c = await coop(t);
    await refused(
      t,
      () =>
        c.member.client.call("governanceservice.submit_response", {
          parent_action_id: "01900000-0000-7000-8000-000000000000",
          content: content("?"),
          created_by: c.member.resident,
        }),
      -32003,
      "NotFound",
    );
  });
});
