import { beforeEach, describe, expect, test } from "vitest";
import { sweepExpiredProposals } from "../../../src/services/governance-service/proposals-expiry.ts";
import type { Client, TestApp } from "../../support/app.ts";
import { insertCompany, insertProxy, insertRole, member, person, startFinanceApp } from "../../support/entities.ts";
import { COMPANY_MEMBERS, count, errorOf, oneAudience, refusedNoWrite, sql } from "../../support/helpers.ts";
import { GOV, governanceWrites, proposeOk, standardCompany, vote, voteOk } from "./support.ts";

let t: TestApp;

beforeEach(async () => {
  t = await startFinanceApp({ accessTokenTtlS: 400 * 24 * 3600 });
});

const tally = (c: Client, proposal: string) => c.call("governanceservice.tally_votes", { proposal_id: proposal });
const execute = (c: Client, proposal: string, executor: string) =>
  c.call("governanceservice.execute_proposal", { proposal_id: proposal, executor_id: executor, notes: "minuted" });

/** A company of `n` shareholders holding `units` each, a director, and an ordinary or special proposal. */
async function voters(kind: "ordinary" | "special", units: number[], allowAbstention = false) {
  const owner = await t.register(`tally-owner-${Math.random().toString(36).slice(2)}@example.org`);
  const holders = [];
  for (const _ of units) holders.push(await member(t));
  const company = await insertCompany(t, owner.userId, {
    shareholders: holders.map((h, i) => ({
      name: `H${i}`,
      email: `h${i}@example.org`,
      resident_id: h.resident,
      units: units[i],
      role: null,
    })),
  });
  for (const h of holders) await insertRole(t, company, h.resident, "shareholder");
  const director = await person(t, company, "director");
  const p = await proposeOk(director.client, company, { kind, voting_days: 1, allow_abstention: allowAbstention });
  return { company, holders, director, p };
}

const afterEnd = (p: { voting_ends_at: string }) => t.clock.set(p.voting_ends_at);

describe("tally_votes", () => {
  test("ordinary with exactly 50 % for is rejected", async () => {
    const { holders, director, p } = await voters("ordinary", [50, 50]);
    await voteOk(holders[0]!.client, p.sid, holders[0]!.resident, "for");
    await voteOk(holders[1]!.client, p.sid, holders[1]!.resident, "against");
    const r = await director.client.callOk("governanceservice.tally_votes", { proposal_id: p.sid });
    expect(r).toMatchObject({ status: "rejected", passed: false, quorum_reached: true, for_percentage: 50 });
  });

  test("special with exactly 75 % for passes", async () => {
    const { holders, director, p } = await voters("special", [75, 25]);
    await voteOk(holders[0]!.client, p.sid, holders[0]!.resident, "for");
    await voteOk(holders[1]!.client, p.sid, holders[1]!.resident, "against");
    const r = await director.client.callOk("governanceservice.tally_votes", { proposal_id: p.sid });
    expect(r).toMatchObject({ status: "passed", passed: true, for_percentage: 75, passing_threshold: 75 });
  });

  test("quorum exactly met passes, one unit short is rejected; the proposal row is updated", async () => {
    const met = await voters("ordinary", [50, 50]);
    await voteOk(met.holders[0]!.client, met.p.sid, met.holders[0]!.resident, "for");
    afterEnd(met.p);
    const r = await met.director.client.callOk("governanceservice.tally_votes", { proposal_id: met.p.sid });
    expect(r).toMatchObject({ status: "passed", quorum_reached: true, turnout_percentage: 50, total_voted: 50 });
    const row = await met.director.client.callOk("governanceservice.get_proposal", { proposal_id: met.p.sid });
    expect(row).toMatchObject({ status: "passed", votes_for: 50, votes_against: 0, total_voted: 50 });

    t.clock.set("2026-11-23T10:00:00.000Z");
    const short = await voters("ordinary", [49, 51]);
    await voteOk(short.holders[0]!.client, short.p.sid, short.holders[0]!.resident, "for");
    afterEnd(short.p);
    const s = await short.director.client.callOk("governanceservice.tally_votes", { proposal_id: short.p.sid });
    expect(s).toMatchObject({ status: "rejected", quorum_reached: false });
  });

  test("abstentions count toward the quorum but not the passing share", async () => {
    const { holders, director, p } = await voters("ordinary", [10, 45, 45], true);
    await voteOk(holders[0]!.client, p.sid, holders[0]!.resident, "for");
    await voteOk(holders[1]!.client, p.sid, holders[1]!.resident, "abstain");
    afterEnd(p);
    const r = await director.client.callOk("governanceservice.tally_votes", { proposal_id: p.sid });
    expect(r).toMatchObject({
      status: "passed",
      votes_for: 10,
      votes_abstain: 45,
      total_voted: 55,
      for_percentage: 100,
      quorum_reached: true,
    });
  });

  test("before the end with power unvoted: InvalidState, nothing written; once every unit voted: allowed", async () => {
    const { holders, director, p } = await voters("ordinary", [60, 40]);
    await voteOk(holders[0]!.client, p.sid, holders[0]!.resident, "for");
    await refusedNoWrite(
      () => governanceWrites(t),
      () => tally(director.client, p.sid),
      -32005,
      GOV("InvalidState"),
    );
    await voteOk(holders[1]!.client, p.sid, holders[1]!.resident, "against");
    const r = await director.client.callOk("governanceservice.tally_votes", { proposal_id: p.sid });
    expect(r).toMatchObject({ status: "passed", total_voted: 100, total_issued_power_snapshot: 100 });
  });

  test("a non-director: Forbidden, nothing written; a stranger: NotFound", async () => {
    const { holders, p } = await voters("ordinary", [60, 40]);
    afterEnd(p);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => tally(holders[0]!.client, p.sid),
      -32002,
      GOV("Forbidden"),
    );
    const stranger = await member(t);
    expect(errorOf(await tally(stranger.client, p.sid)).code).toBe(-32003);
  });

  test("a tallied proposal is not tallied again (InvalidState)", async () => {
    const { director, p } = await voters("ordinary", [60, 40]);
    afterEnd(p);
    expect((await director.client.callOk("governanceservice.tally_votes", { proposal_id: p.sid })).status).toBe(
      "rejected",
    );
    await refusedNoWrite(
      () => governanceWrites(t),
      () => tally(director.client, p.sid),
      -32005,
      GOV("InvalidState"),
    );
  });

  test("a company that stopped operating is neither tallied nor executed (InvalidState, nothing written)", async () => {
    const { company, director, p } = await voters("ordinary", [60, 40]);
    afterEnd(p);
    await sql(t, `update "zone_company" set status = 'suspended' where company_id = ?`, [company]);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => tally(director.client, p.sid),
      -32005,
      GOV("InvalidState"),
    );
    await sql(t, `update "proposal" set status = 'passed' where sid = ?`, [p.sid]);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => execute(director.client, p.sid, director.resident),
      -32005,
      GOV("InvalidState"),
    );
  });

  test("board proposals are decided by the directors, one vote each", async () => {
    const s = await standardCompany(t);
    const d2 = await person(t, s.company, "director");
    const p = await proposeOk(s.director.client, s.company, { kind: "board" });
    expect(errorOf(await vote(s.a.client, p.sid, s.a.resident, "for")).data).toMatchObject(GOV("Forbidden"));
    expect(await voteOk(s.director.client, p.sid, s.director.resident, "for")).toMatchObject({ voting_power: 1 });
    await voteOk(d2.client, p.sid, d2.resident, "for");
    const r = await s.director.client.callOk("governanceservice.tally_votes", { proposal_id: p.sid });
    expect(r).toMatchObject({ status: "passed", total_voted: 2, total_issued_power_snapshot: 2 });
  });
});

describe("execute_proposal and list_resolutions", () => {
  async function passed() {
    const v = await voters("ordinary", [60, 40]);
    await voteOk(v.holders[0]!.client, v.p.sid, v.holders[0]!.resident, "for");
    afterEnd(v.p);
    await v.director.client.callOk("governanceservice.tally_votes", { proposal_id: v.p.sid });
    return v;
  }

  test("a passed proposal becomes executed once, with a resolution numbered per company and an audience row", async () => {
    const { company, director, p } = await passed();
    const res = await director.client.callOk("governanceservice.execute_proposal", {
      proposal_id: p.sid,
      executor_id: director.resident,
      notes: "minuted",
    });
    expect(res).toMatchObject({
      company_id: company,
      proposal_id: p.sid,
      resolution_number: "RES-2026-0001",
      kind: "ordinary",
      title: p.title,
      content: p.description,
      votes_for: 60,
      votes_against: 0,
      executed_by: director.resident,
      notes: "minuted",
    });
    const row = await director.client.callOk("governanceservice.get_proposal", { proposal_id: p.sid });
    expect(row).toMatchObject({ status: "executed", resolution_id: res.sid });
    const audience = await oneAudience(t, res.sid);
    expect(audience).toMatchObject({ document_type: "resolution", company_id: company });
    expect([...audience.classification].sort()).toEqual(COMPANY_MEMBERS);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => execute(director.client, p.sid, director.resident),
      -32005,
      GOV("InvalidState"),
    );
    const list = await director.client.callOk("governanceservice.list_resolutions", { company_id: company });
    expect(list.items.map((r) => r.resolution_number)).toEqual(["RES-2026-0001"]);
  });

  test("resolution numbers run per company", async () => {
    const first = await passed();
    const r1 = await first.director.client.callOk("governanceservice.execute_proposal", {
      proposal_id: first.p.sid,
      executor_id: first.director.resident,
    });
    const h = first.holders[0]!;
    t.clock.set("2026-11-30T10:00:00.000Z");
    const p2 = await proposeOk(h.client, first.company, { voting_days: 1 });
    await voteOk(h.client, p2.sid, h.resident, "for");
    t.clock.set(p2.voting_ends_at);
    await first.director.client.callOk("governanceservice.tally_votes", { proposal_id: p2.sid });
    const r2 = await first.director.client.callOk("governanceservice.execute_proposal", {
      proposal_id: p2.sid,
      executor_id: first.director.resident,
    });
    t.clock.set("2026-11-23T10:00:00.000Z");
    const other = await passed();
    const r3 = await other.director.client.callOk("governanceservice.execute_proposal", {
      proposal_id: other.p.sid,
      executor_id: other.director.resident,
    });
    expect([r1.resolution_number, r2.resolution_number, r3.resolution_number]).toEqual([
      "RES-2026-0001",
      "RES-2026-0002",
      "RES-2026-0001",
    ]);
    const list = await first.holders[1]!.client.callOk("governanceservice.list_resolutions", {
      company_id: first.company,
    });
    expect(list.items.map((r) => r.sid)).toEqual([r2.sid, r1.sid]);
  });

  test("rejected and active proposals are not executed (InvalidState, nothing written)", async () => {
    const { director, p } = await voters("ordinary", [60, 40]);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => execute(director.client, p.sid, director.resident),
      -32005,
      GOV("InvalidState"),
    );
    afterEnd(p);
    await director.client.callOk("governanceservice.tally_votes", { proposal_id: p.sid });
    await refusedNoWrite(
      () => governanceWrites(t),
      () => execute(director.client, p.sid, director.resident),
      -32005,
      GOV("InvalidState"),
    );
  });

  test("a non-director may not execute (Forbidden), nor name an executor without the director role", async () => {
    const { holders, director, p, company } = await passed();
    await refusedNoWrite(
      () => governanceWrites(t),
      () => execute(holders[0]!.client, p.sid, holders[0]!.resident),
      -32002,
      GOV("Forbidden"),
    );
    // the director acts for the shareholder through a proxy, but the named executor holds no director role
    await insertProxy(t, director.resident, holders[0]!.resident);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => execute(director.client, p.sid, holders[0]!.resident),
      -32002,
      GOV("Forbidden"),
    );
    expect(await count(t, "resolution", "company_id = ?", [company])).toBe(0);
  });
});

describe("expiry sweep", () => {
  test("an untallied proposal expires the configured time after voting_ends_at; a tallied one stays", async () => {
    const a = await voters("ordinary", [60, 40]);
    const b = await voters("ordinary", [60, 40]);
    afterEnd(a.p);
    await a.director.client.callOk("governanceservice.tally_votes", { proposal_id: a.p.sid });
    const hours = t.config.proposals.expiryHours;
    const ends = Date.parse(b.p.voting_ends_at);
    expect(await sweepExpiredProposals(t.app.runtime, new Date(ends + hours * 3600_000 - 1), hours)).toEqual([]);
    expect(await sweepExpiredProposals(t.app.runtime, new Date(ends + hours * 3600_000), hours)).toEqual([b.p.sid]);
    const rows = await sql(t, `select sid, status from "proposal" order by sid`);
    expect(Object.fromEntries(rows.map((r) => [r.sid, r.status]))).toEqual({
      [a.p.sid]: "rejected",
      [b.p.sid]: "expired",
    });
    t.clock.set(new Date(ends + hours * 3600_000).toISOString());
    await refusedNoWrite(
      () => governanceWrites(t),
      () => tally(b.director.client, b.p.sid),
      -32005,
      GOV("InvalidState"),
    );
  });
});
