import { beforeEach, describe, expect, test } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { insertCompany, insertRole, member, person, startFinanceApp } from "../../support/entities.ts";
import { errorOf, refusedNoWrite, sql } from "../../support/helpers.ts";
import { GOV, governanceWrites, propose, proposeOk, standardCompany } from "./support.ts";

let t: TestApp;

beforeEach(async () => {
  t = await startFinanceApp({
    proposals: {
      thresholds: {
        ordinary: { quorum: 40, passing: 50 },
        special: { quorum: 60, passing: 75 },
        board: { quorum: 51, passing: 50 },
      },
      expiryHours: 24,
      sweepIntervalS: 0,
    },
  });
});

describe("create_proposal", () => {
  test("starts active, voting from now for voting_days, percentages stamped from configuration per kind", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company, { kind: "special", voting_days: 3 });
    expect(p).toMatchObject({
      status: "active",
      kind: "special",
      proposer_id: s.a.resident,
      voting_starts_at: "2026-11-23T10:00:00.000Z",
      voting_ends_at: "2026-11-26T10:00:00.000Z",
      quorum_percentage: 60,
      passing_threshold: 75,
      total_issued_power_snapshot: 100,
      votes_for: 0,
      total_voted: 0,
      resolution_id: null,
    });
    const o = await proposeOk(s.a.client, s.company, { kind: "ordinary" });
    expect([o.quorum_percentage, o.passing_threshold]).toEqual([40, 50]);
  });

  test("standard voting: the snapshot is the sum of units, and each holder's units are recorded with it", async () => {
    const s = await standardCompany(t, [70, 30]);
    const p = await proposeOk(s.director.client, s.company);
    expect(p.total_issued_power_snapshot).toBe(100);
    const rows = await sql(
      t,
      `select subject_id, voting_power from "proposal_voter_power" where proposal_id = ? order by voting_power desc`,
      [p.sid],
    );
    expect(rows.map((r) => [r.subject_id, Number(r.voting_power)])).toEqual([
      [s.a.resident, 70],
      [s.b.resident, 30],
    ]);
  });

  test("stamped values do not change when configuration or the cap table changes later", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    await sql(t, `update "zone_company" set shareholders = '[]'::jsonb where company_id = ?`, [s.company]);
    const again = await s.a.client.callOk("governanceservice.get_proposal", { proposal_id: p.sid });
    expect(again.total_issued_power_snapshot).toBe(100);
    expect(again.quorum_percentage).toBe(40);
  });

  test("cooperative voting: the count of open founding_member and platinum_member roles", async () => {
    const owner = await t.register("coop-owner@example.org");
    const coop = await insertCompany(t, owner.userId, { company_type: "coop_standard", voting_model: "cooperative" });
    const m1 = await person(t, coop, "founding_member");
    await person(t, coop, "platinum_member");
    await person(t, coop, "founding_member", { valid_to: new Date("2026-02-01T00:00:00.000Z") });
    await person(t, coop, "director");
    const p = await proposeOk(m1.client, coop);
    expect(p.total_issued_power_snapshot).toBe(2);
  });

  test("board: the snapshot is the current directors, one each; a non-director may not open one", async () => {
    const s = await standardCompany(t);
    await person(t, s.company, "director");
    const p = await proposeOk(s.director.client, s.company, { kind: "board" });
    expect(p.total_issued_power_snapshot).toBe(2);
    expect(p.quorum_percentage).toBe(51);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => propose(s.a.client, s.company, { kind: "board" }),
      -32002,
      GOV("Forbidden"),
    );
  });

  test("voting_days outside the declared 1-90: invalid params; an empty title: InvalidInput; nothing written", async () => {
    const s = await standardCompany(t);
    for (const o of [{ voting_days: 0 }, { voting_days: 91 }]) {
      await refusedNoWrite(
        () => governanceWrites(t),
        () => propose(s.a.client, s.company, o),
        -32602,
        null,
      );
    }
    await refusedNoWrite(
      () => governanceWrites(t),
      () => propose(s.a.client, s.company, { title: "   " }),
      -32006,
      GOV("InvalidInput"),
    );
    expect((await proposeOk(s.a.client, s.company, { voting_days: 90 })).voting_ends_at).toBe(
      "2027-02-21T10:00:00.000Z",
    );
  });

  test("a company that is not active: InvalidState, nothing written", async () => {
    const s = await standardCompany(t);
    await sql(t, `update "zone_company" set status = 'inactive' where company_id = ?`, [s.company]);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => propose(s.a.client, s.company),
      -32005,
      GOV("InvalidState"),
    );
  });

  test("a stranger gets NotFound; the owner without a resident role may not propose (Forbidden)", async () => {
    const s = await standardCompany(t);
    const stranger = await member(t);
    expect(errorOf(await propose(stranger.client, s.company)).code).toBe(-32003);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => propose(s.owner, s.company),
      -32002,
      GOV("Forbidden"),
    );
  });
});

describe("get_proposal and list_proposals", () => {
  test("members read proposals newest first with a status filter; strangers get NotFound", async () => {
    const s = await standardCompany(t);
    const first = await proposeOk(s.a.client, s.company, { title: "First" });
    t.clock.advance(60);
    const second = await proposeOk(s.b.client, s.company, { title: "Second" });
    await sql(t, `update "proposal" set status = 'rejected' where sid = ?`, [first.sid]);
    const all = await s.director.client.callOk("governanceservice.list_proposals", { company_id: s.company });
    expect(all.items.map((p) => p.title)).toEqual(["Second", "First"]);
    const active = await s.a.client.callOk("governanceservice.list_proposals", {
      company_id: s.company,
      status: "active",
    });
    expect(active.items.map((p) => p.sid)).toEqual([second.sid]);
    const detail = await s.b.client.callOk("governanceservice.get_proposal", { proposal_id: first.sid });
    expect(detail).toMatchObject({ sid: first.sid, status: "rejected", votes: [] });
    const stranger = await member(t);
    expect(
      errorOf(await stranger.client.call("governanceservice.get_proposal", { proposal_id: first.sid })),
    ).toMatchObject({ code: -32003 });
    expect(
      errorOf(await stranger.client.call("governanceservice.list_proposals", { company_id: s.company })).code,
    ).toBe(-32003);
    expect(
      errorOf(await s.a.client.call("governanceservice.get_proposal", { proposal_id: "no-such-proposal" })).code,
    ).toBe(-32003);
  });
});

describe("get_voting_power", () => {
  test("units now and the share of the total (standard); 0 for a holder without units", async () => {
    const s = await standardCompany(t, [75, 25]);
    const a = await s.b.client.callOk("governanceservice.get_voting_power", {
      company_id: s.company,
      resident_id: s.a.resident,
    });
    expect(a).toMatchObject({ voting_model: "standard", voting_power: 75, total_power: 100, percentage: 75 });
    const d = await s.a.client.callOk("governanceservice.get_voting_power", {
      company_id: s.company,
      resident_id: s.director.resident,
    });
    expect(d).toMatchObject({ voting_power: 0, total_power: 100, percentage: 0 });
  });

  test("cooperative: one per open founding_member or platinum_member role", async () => {
    const owner = await t.register("coop-owner2@example.org");
    const coop = await insertCompany(t, owner.userId, { company_type: "coop_standard", voting_model: "cooperative" });
    const m1 = await person(t, coop, "founding_member");
    await person(t, coop, "platinum_member");
    await insertRole(t, coop, m1.resident, "director");
    const r = await m1.client.callOk("governanceservice.get_voting_power", {
      company_id: coop,
      resident_id: m1.resident,
    });
    expect(r).toMatchObject({ voting_model: "cooperative", voting_power: 1, total_power: 2, percentage: 50 });
  });
});
