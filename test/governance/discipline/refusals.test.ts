import { beforeAll, describe, expect, test } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { insertCompany, insertResident, insertRole, member, person } from "../../support/entities.ts";
import { sql } from "../../support/helpers.ts";
import {
  appeal,
  auditRows,
  content,
  coop,
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

describe("issue_notice refusals", () => {
  test("a company that is not a cooperative is InvalidState", async () => {
    const c = await coop(t);
    const plain = await insertCompany(t, c.owner.userId);
    await insertRole(t, plain, c.director.resident, "director");
    await insertRole(t, plain, c.member.resident, "shareholder");
    await refused(
      t,
      () =>
        c.director.client.call("governanceservice.issue_notice", {
          company_id: plain,
          subject_resident_id: c.member.resident,
          content: content("x"),
          created_by: c.director.resident,
        }),
      -32005,
      "InvalidState",
    );
    expect((await auditRows(t, "governance_step")).at(-1)).toMatchObject({ allowed: false });
  });

  test("a cooperative that may not operate (suspended) is InvalidState with its status", async () => {
    const c = await coop(t, { status: "suspended" });
    await refused(
      t,
      () =>
        c.director.client.call("governanceservice.issue_notice", {
          company_id: c.company,
          subject_resident_id: c.member.resident,
          content: content("x"),
          created_by: c.director.resident,
        }),
      -32005,
      "InvalidState",
    );
    const r = await c.director.client.call("governanceservice.issue_notice", {
      company_id: c.company,
      subject_resident_id: c.member.resident,
      content: content("x"),
      created_by: c.director.resident,
    });
    expect("error" in r && r.error.data).toMatchObject({ status: "suspended" });
  });

  test("a subject without a current role in the company is NotFound", async () => {
    const c = await coop(t);
    const stranger = await member(t);
    const former = await person(t, c.company, "founding_member", { valid_to: new Date("2026-06-01T00:00:00.000Z") });
    for (const subject of [stranger.resident, former.resident]) {
      await refused(
        t,
        () =>
          c.director.client.call("governanceservice.issue_notice", {
            company_id: c.company,
            subject_resident_id: subject,
            content: content("x"),
            created_by: c.director.resident,
          }),
        -32003,
        "NotFound",
      );
    }
  });

  test("content that is not a JSON object is InvalidInput", async () => {
    const c = await coop(t);
    for (const bad of ["not json", "[1]", "null"]) {
      await refused(
        t,
        () =>
          c.director.client.call("governanceservice.issue_notice", {
            company_id: c.company,
            subject_resident_id: c.member.resident,
            content: bad,
            created_by: c.director.resident,
          }),
        -32006,
        "InvalidInput",
      );
    }
  });

  test("created_by must hold the director role: the owner's resident without a role is Forbidden", async () => {
    const c = await coop(t);
    const ownerResident = await insertResident(t, c.owner.userId);
    await refused(
      t,
      () =>
        c.owner.call("governanceservice.issue_notice", {
          company_id: c.company,
          subject_resident_id: c.member.resident,
          content: content("x"),
          created_by: ownerResident,
        }),
      -32002,
      "Forbidden",
    );
  });

  test("a member without the director role is Forbidden (dispatcher rule)", async () => {
    const c = await coop(t);
    await refused(
      t,
      () =>
        c.other.client.call("governanceservice.issue_notice", {
          company_id: c.company,
          subject_resident_id: c.member.resident,
          content: content("x"),
          created_by: c.other.resident,
        }),
      -32002,
      "Forbidden",
    );
  });
});

describe("who takes the later steps (company read from the parent)", () => {
  test("only the member concerned responds: another member is Forbidden, a stranger NotFound", async () => {
    const c = await coop(t);
    const n = await notice(t, c);
    await refused(
      t,
      () =>
        c.other.client.call("governanceservice.submit_response", {
          parent_action_id: n.sid,
          content: content("me"),
          created_by: c.other.resident,
        }),
      -32002,
      "Forbidden",
    );
    const stranger = await member(t);
    await refused(
      t,
      () =>
        stranger.client.call("governanceservice.submit_response", {
          parent_action_id: n.sid,
          content: content("me"),
          created_by: stranger.resident,
        }),
      -32003,
      "NotFound",
    );
  });

  test("only the member concerned appeals", async () => {
    const c = await coop(t);
    const d = await decided(t, c, "remove");
    await refused(
      t,
      () =>
        c.other.client.call("governanceservice.file_appeal", {
          parent_action_id: d.sid,
          content: content("me"),
          created_by: c.other.resident,
        }),
      -32002,
      "Forbidden",
    );
  });

  test("a review or a decision by a member who is not a director is Forbidden", async () => {
    const c = await coop(t);
    const r = await respond(t, c, (await notice(t, c)).sid);
    await refused(
      t,
      () =>
        c.other.client.call("governanceservice.conduct_review", {
          parent_action_id: r.sid,
          content: content("me"),
          created_by: c.other.resident,
        }),
      -32002,
      "Forbidden",
    );
    const rv = await review(t, c, r.sid);
    await refused(
      t,
      () =>
        c.other.client.call("governanceservice.issue_decision", {
          parent_action_id: rv.sid,
          outcome: "remove",
          decided_by_role: "governance_board",
          content: content("me"),
          created_by: c.other.resident,
        }),
      -32002,
      "Forbidden",
    );
  });

  /** A chain against a director of the cooperative, who has responded to the notice. */
  async function directorAccused() {
    const c = await coop(t);
    const accused = await person(t, c.company, "director");
    t.clock.advance(1);
    const n = await c.director.client.callOk("governanceservice.issue_notice", {
      company_id: c.company,
      subject_resident_id: accused.resident,
      content: content("x"),
      created_by: c.director.resident,
    });
    const r = await accused.client.callOk("governanceservice.submit_response", {
      parent_action_id: n.sid,
      content: content("y"),
      created_by: accused.resident,
    });
    return { c, accused, r };
  }

  test("a director who is the subject may not review their own case", async () => {
    const { accused, r } = await directorAccused();
    await refused(
      t,
      () =>
        accused.client.call("governanceservice.conduct_review", {
          parent_action_id: r.sid,
          content: content("fine"),
          created_by: accused.resident,
        }),
      -32002,
      "Forbidden",
    );
  });

  test("the subject takes no executor step: neither the decision nor the appeal decision (issue 29 item 12)", async () => {
    const { c, accused, r } = await directorAccused();
    const rv = await c.director.client.callOk("governanceservice.conduct_review", {
      parent_action_id: r.sid,
      content: content("reviewed"),
      created_by: c.director.resident,
    });
    const decide = (who: typeof accused, parent: string, outcome: string) =>
      who.client.call("governanceservice.issue_decision", {
        parent_action_id: parent,
        outcome,
        decided_by_role: "governance_board",
        content: content("ruling"),
        created_by: who.resident,
      } as never);
    await refused(t, () => decide(accused, rv.sid, "dismiss"), -32002, "Forbidden");
    const d = await c.director.client.callOk("governanceservice.issue_decision", {
      parent_action_id: rv.sid,
      outcome: "remove",
      decided_by_role: "governance_board",
      content: content("ruling"),
      created_by: c.director.resident,
    });
    const a = await accused.client.callOk("governanceservice.file_appeal", {
      parent_action_id: d.sid,
      content: content("appeal"),
      created_by: accused.resident,
    });
    await refused(t, () => decide(accused, a.sid, "dismiss"), -32002, "Forbidden");
  });

  test("a later step in a company that stopped operating is InvalidState", async () => {
    const c = await coop(t);
    const n = await notice(t, c);
    await sql(t, `update "zone_company" set status = 'inactive' where company_id = ?`, [c.company]);
    await refused(
      t,
      () =>
        c.member.client.call("governanceservice.submit_response", {
          parent_action_id: n.sid,
          content: content("x"),
          created_by: c.member.resident,
        }),
      -32005,
      "InvalidState",
    );
  });
});

describe("the executor set of a decision is chosen by the parent's kind", () => {
  const tryDecide = (c: Awaited<ReturnType<typeof coop>>, parent: string, role: string) => () =>
    c.director.client.rpc("governanceservice.issue_decision", {
      parent_action_id: parent,
      outcome: "remove",
      decided_by_role: role,
      content: content("ruling"),
      created_by: c.director.resident,
    });

  test("deployment defaults: the step-4 set on a review, the step-5 set on an appeal", async () => {
    const c = await coop(t);
    const rv = await review(t, c, (await respond(t, c, (await notice(t, c)).sid)).sid);
    await refused(t, tryDecide(c, rv.sid, "internal_appeals_committee"), -32006, "ExecutorNotAllowed");
    const d = await decide(t, c, rv.sid, "remove", "ethics_committee");
    const a = await appeal(t, c, d.sid);
    await refused(t, tryDecide(c, a.sid, "governance_board"), -32006, "ExecutorNotAllowed");
    const ruling = await decide(t, c, a.sid, "warning", "arbitration");
    expect(ruling).toMatchObject({ decided_by_role: "arbitration", outcome: "warning" });
  });

  test("the company's due_process_executors replace the defaults per step", async () => {
    const c = await coop(t, {
      due_process_executors: {
        notice: null,
        response: null,
        review: null,
        decision: "review_panel",
        appeal: "general_assembly",
        appeal_decision: null,
      },
    });
    const rv = await review(t, c, (await respond(t, c, (await notice(t, c)).sid)).sid);
    await refused(t, tryDecide(c, rv.sid, "governance_board"), -32006, "ExecutorNotAllowed");
    const d = await decide(t, c, rv.sid, "remove", "review_panel");
    const a = await appeal(t, c, d.sid);
    await refused(t, tryDecide(c, a.sid, "internal_appeals_committee"), -32006, "ExecutorNotAllowed");
    expect(await decide(t, c, a.sid, "dismiss", "general_assembly")).toMatchObject({ outcome: "dismiss" });
  });

  test("the deployment defaults come from the configuration", async () => {
    const app = await disciplineApp({
      discipline: {
        ...t.config.discipline,
        executors: { decision: ["random_member_jury"], appeal_decision: ["arbitration"] },
      },
    });
    try {
      const c = await coop(app);
      const rv = await review(app, c, (await respond(app, c, (await notice(app, c)).sid)).sid);
      await refused(app, tryDecide(c, rv.sid, "governance_board"), -32006, "ExecutorNotAllowed");
      expect(await decide(app, c, rv.sid, "warning", "random_member_jury")).toMatchObject({ outcome: "warning" });
    } finally {
      t = await disciplineApp();
    }
  });
});
