import { beforeEach, describe, expect, test } from "vitest";
import type { TestApp } from "../../support/app.ts";
import { insertProxy, member, person, startFinanceApp } from "../../support/entities.ts";
import { count, errorOf, refusedNoWrite, sql } from "../../support/helpers.ts";
import { GOV, governanceWrites, proposeOk, setCapTable, standardCompany, vote, voteOk } from "./support.ts";

let t: TestApp;

beforeEach(async () => {
  t = await startFinanceApp({ accessTokenTtlS: 400 * 24 * 3600 });
});

describe("cast_vote", () => {
  test("a vote carries the voter's units at the snapshot and appears on the proposal", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    const v = await s.a.client.callOk("governanceservice.cast_vote", {
      proposal_id: p.sid,
      voter_id: s.a.resident,
      vote_value: "for",
      password: "correct horse battery staple 42",
      comment: "yes",
    });
    expect(v).toMatchObject({ proposal_id: p.sid, voter_id: s.a.resident, vote_value: "for", voting_power: 60 });
    const detail = await s.b.client.callOk("governanceservice.get_proposal", { proposal_id: p.sid });
    expect(detail.votes).toEqual([v]);
  });

  test("units moved after creation never count twice: each side votes its snapshot power", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    // a transfers all 60 units to b during the vote
    await setCapTable(t, s.company, [[s.b.resident, 100]]);
    const now = await s.b.client.callOk("governanceservice.get_voting_power", {
      company_id: s.company,
      resident_id: s.b.resident,
    });
    expect(now.voting_power).toBe(100);
    expect(((await voteOk(s.b.client, p.sid, s.b.resident, "for")) as { voting_power: number }).voting_power).toBe(40);
    expect(((await voteOk(s.a.client, p.sid, s.a.resident, "for")) as { voting_power: number }).voting_power).toBe(60);
    const rows = await sql(t, `select sum(voting_power) as n from "vote" where proposal_id = ?`, [p.sid]);
    expect(Number(rows[0].n)).toBe(p.total_issued_power_snapshot);
  });

  test("a voter without power at the snapshot is refused (Forbidden), even holding units now", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    const late = await person(t, s.company, "shareholder");
    await setCapTable(t, s.company, [
      [s.a.resident, 50],
      [s.b.resident, 40],
      [late.resident, 10],
    ]);
    for (const who of [late, s.director]) {
      await refusedNoWrite(
        () => governanceWrites(t),
        () => vote(who.client, p.sid, who.resident, "for"),
        -32002,
        GOV("Forbidden"),
      );
    }
  });

  test("a proxy votes for its principal's target with the target's power", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    await insertProxy(t, s.a.resident, s.b.resident);
    const v = (await voteOk(s.a.client, p.sid, s.b.resident, "against")) as { voter_id: string; voting_power: number };
    expect(v).toMatchObject({ voter_id: s.b.resident, voting_power: 40 });
  });

  test("voting for a resident the caller neither owns nor acts for: NotOwner, nothing written", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => vote(s.a.client, p.sid, s.b.resident, "for"),
      -32002,
      GOV("NotOwner"),
    );
  });

  test("a wrong or missing password: WrongPassword / PasswordRequired, nothing written", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => vote(s.a.client, p.sid, s.a.resident, "for", "not the password"),
      -32002,
      GOV("WrongPassword"),
    );
    await refusedNoWrite(
      () => governanceWrites(t),
      () => vote(s.a.client, p.sid, s.a.resident, "for", ""),
      -32002,
      GOV("PasswordRequired"),
    );
  });

  test("a second vote by the same voter: AlreadyExists, the first stands", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    await voteOk(s.a.client, p.sid, s.a.resident, "for");
    await refusedNoWrite(
      () => governanceWrites(t),
      () => vote(s.a.client, p.sid, s.a.resident, "against"),
      -32005,
      GOV("AlreadyExists"),
    );
    expect(await count(t, "vote", "vote_value = 'for'")).toBe(1);
  });

  test("the window closes at voting_ends_at: a millisecond before is taken, the instant itself refused", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company, { voting_days: 2 });
    t.clock.set("2026-11-25T09:59:59.999Z");
    await voteOk(s.a.client, p.sid, s.a.resident, "for");
    t.clock.set(p.voting_ends_at);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => vote(s.b.client, p.sid, s.b.resident, "for"),
      -32005,
      GOV("InvalidState"),
    );
  });

  test("a proposal that is not active takes no vote (InvalidState)", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    await sql(t, `update "proposal" set status = 'expired' where sid = ?`, [p.sid]);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => vote(s.a.client, p.sid, s.a.resident, "for"),
      -32005,
      GOV("InvalidState"),
    );
  });

  test("abstain only when the proposal allows abstention (InvalidInput otherwise)", async () => {
    const s = await standardCompany(t);
    const strict = await proposeOk(s.a.client, s.company);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => vote(s.a.client, strict.sid, s.a.resident, "abstain"),
      -32006,
      GOV("InvalidInput"),
    );
    const open = await proposeOk(s.a.client, s.company, { allow_abstention: true });
    expect(await voteOk(s.a.client, open.sid, s.a.resident, "abstain")).toMatchObject({ vote_value: "abstain" });
  });

  test("a company that stopped operating takes no vote (InvalidState); a stranger gets NotFound", async () => {
    const s = await standardCompany(t);
    const p = await proposeOk(s.a.client, s.company);
    const stranger = await member(t);
    expect(errorOf(await vote(stranger.client, p.sid, stranger.resident, "for")).code).toBe(-32003);
    await sql(t, `update "zone_company" set status = 'suspended' where company_id = ?`, [s.company]);
    await refusedNoWrite(
      () => governanceWrites(t),
      () => vote(s.a.client, p.sid, s.a.resident, "for"),
      -32005,
      GOV("InvalidState"),
    );
  });

  test.runIf(Boolean(process.env["DATABASE_URL"]))(
    "concurrent double votes (PostgreSQL): exactly one is recorded, the other is AlreadyExists",
    async () => {
      const s = await standardCompany(t);
      const p = await proposeOk(s.a.client, s.company);
      const replies = await Promise.all(
        Array.from({ length: 4 }, (_, i) => vote(s.a.client, p.sid, s.a.resident, i % 2 === 0 ? "for" : "against")),
      );
      const ok = replies.filter((r) => "result" in r);
      const refused = replies.filter((r) => "error" in r).map((r) => errorOf(r));
      expect(ok).toHaveLength(1);
      expect(refused).toHaveLength(3);
      for (const e of refused) expect(e.data).toMatchObject(GOV("AlreadyExists"));
      expect(await count(t, "vote", "proposal_id = ?", [p.sid])).toBe(1);
    },
  );
});
