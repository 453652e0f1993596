import { beforeEach, describe, expect, test } from "vitest";
import type { DividendResult, TreasuryAccountResult } from "../../../generated/types.ts";
import { sweepExpiredProposals } from "../../../src/services/governance-service/proposals-expiry.ts";
import { type Client, PASSWORD, type TestApp } from "../../support/app.ts";
import { insertCompany, person, startFinanceApp } from "../../support/entities.ts";
import { count, errorOf, refusedNoWrite, sql } from "../../support/helpers.ts";
import { balanceOf, companyAccount, fund, residentAccount } from "../../treasury/support.ts";
import { type Cap, capTableCompany } from "../transfers/support.ts";

let t: TestApp;
let cap: Cap;
let admin: Client;
let source: TreasuryAccountResult;

async function setUp(overrides: Parameters<typeof startFinanceApp>[0] = {}) {
  t = await startFinanceApp(overrides);
  cap = await capTableCompany(t);
  admin = await t.admin();
  source = await companyAccount(cap.director.client, cap.company, { currency: "EUR" });
  await fund(admin, source, 500);
}

beforeEach(async () => {
  await setUp();
});

const SH = { type: "ShareholderError" };
const ok = <R>(r: { result: R } | { error: unknown }): R => {
  if ("result" in r) return r.result;
  throw new Error(JSON.stringify(r.error));
};

const initiate = (extra: Record<string, unknown> = {}, by = cap.director) =>
  by.client.call("shareholderservice.initiate_dividend", {
    company_id: cap.company,
    total_amount: 100,
    currency: "EUR",
    source_account_id: source.sid,
    distribution_date: t.clock.now().toISOString(),
    initiated_by: by.resident,
    ...extra,
  } as never);
const execute = (d: DividendResult, by = cap.director.client) =>
  by.call("shareholderservice.execute_dividend", { dividend_id: d.sid });

async function writes() {
  return {
    distributions: await sql(t, `select * from dividend_distribution order by sid`),
    payments: await sql(t, `select * from dividend_payment order by sid`),
    ledger: await count(t, "treasury_transaction"),
    accounts: await sql(t, `select sid, balance::text, pending_out::text from treasury_account order by sid`),
    proposals: await count(t, "proposal"),
  };
}

const byRecipient = (d: DividendResult, r: string) => d.payments.find((p) => p.recipient_id === r);

describe("initiate_dividend", () => {
  test("splits by ownership into payments that sum exactly to the total, approved, nothing moved yet", async () => {
    const d = ok(await initiate());
    expect(d).toMatchObject({ status: "approved", requires_vote: false, proposal_id: null, total_amount: 100 });
    expect(byRecipient(d, cap.alice.resident)).toMatchObject({
      amount: 66.67,
      ownership_percentage: 66.666667,
      paid_at: null,
    });
    expect(byRecipient(d, cap.bob.resident)).toMatchObject({ amount: 33.33, ownership_percentage: 33.333333 });
    expect(d.payments.reduce((s, p) => s + Math.round(p.amount * 100), 0)).toBe(10000);
    expect((await balanceOf(t, source.sid)).balance).toBe(500);
  });

  test("refuses a dividend larger than the available balance, nothing written", async () => {
    await refusedNoWrite(writes, () => initiate({ total_amount: 500.01 }), -32006, {
      ...SH,
      variant: "InsufficientFunds",
    });
  });

  test("refuses a non-positive amount, a wrong currency, a past date and another company's account", async () => {
    await refusedNoWrite(writes, () => initiate({ total_amount: 0 }), -32006, { ...SH, variant: "InvalidAmount" });
    await refusedNoWrite(writes, () => initiate({ currency: "USD" }), -32006, { ...SH, variant: "InvalidInput" });
    await refusedNoWrite(
      writes,
      () => initiate({ distribution_date: new Date(t.clock.now().getTime() - 1000).toISOString() }),
      -32006,
      { ...SH, variant: "InvalidInput" },
    );
    const other = await insertCompany(t, cap.owner.userId);
    const director2 = await person(t, other, "director");
    const foreign = await companyAccount(director2.client, other, { currency: "EUR" });
    await refusedNoWrite(writes, () => initiate({ source_account_id: foreign.sid }), -32003, {
      ...SH,
      variant: "NotFound",
    });
  });

  test("a shareholder who is not a director is refused", async () => {
    await refusedNoWrite(writes, () => initiate({}, cap.alice), -32002, null);
  });
});

describe("execute_dividend", () => {
  test("debits the source once, pays holders with an account, keeps the others unpaid until they open one", async () => {
    const alice = await residentAccount(cap.alice, { currency: "EUR" });
    const d = ok(await initiate());
    const first = ok(await execute(d));
    expect(first.status).toBe("processing");
    expect(byRecipient(first, cap.alice.resident)).toMatchObject({ destination_account_id: alice.sid });
    expect(byRecipient(first, cap.alice.resident)?.paid_at).not.toBeNull();
    expect(byRecipient(first, cap.bob.resident)).toMatchObject({ paid_at: null, destination_account_id: null });
    expect((await balanceOf(t, source.sid)).balance).toBe(400);
    expect((await balanceOf(t, alice.sid)).balance).toBe(66.67);

    const bob = await residentAccount(cap.bob, { currency: "EUR" });
    const second = ok(await execute(d));
    expect(second.status).toBe("completed");
    expect(second.completed_at).not.toBeNull();
    expect(byRecipient(second, cap.bob.resident)).toMatchObject({ destination_account_id: bob.sid });
    expect((await balanceOf(t, bob.sid)).balance).toBe(33.33);
    expect((await balanceOf(t, source.sid)).balance).toBe(400);
    const debits = await sql(
      t,
      `select amount::text as amount from treasury_transaction where account_id = ? and tx_type = 'debit'`,
      [source.sid],
    );
    expect(debits).toEqual([{ amount: "100.00" }]);
  });

  test("executing a completed dividend again is a no-op", async () => {
    await residentAccount(cap.alice, { currency: "EUR" });
    await residentAccount(cap.bob, { currency: "EUR" });
    const d = ok(await initiate());
    const done = ok(await execute(d));
    expect(done.status).toBe("completed");
    const before = await writes();
    expect(ok(await execute(d))).toEqual(done);
    expect(await writes()).toEqual(before);
  });

  test("refuses a balance that no longer covers it, nothing written", async () => {
    const d = ok(await initiate({ total_amount: 450 }));
    const drain = await companyAccount(cap.director.client, cap.company, { currency: "EUR" });
    ok(
      await cap.director.client.call("treasuryoperationsservice.initiate_transfer", {
        from_account_id: source.sid,
        to_account_id: drain.sid,
        amount: 100,
        currency: "EUR",
        initiated_by: cap.director.resident,
      }),
    );
    await refusedNoWrite(writes, () => execute(d), -32006, { ...SH, variant: "InsufficientFunds" });
  });

  test("refuses a distribution date still in the future, and a non-director", async () => {
    const d = ok(await initiate({ distribution_date: new Date(t.clock.now().getTime() + 86_400_000).toISOString() }));
    await refusedNoWrite(writes, () => execute(d), -32005, { ...SH, variant: "InvalidState" });
    await refusedNoWrite(writes, () => execute(d, cap.alice.client), -32002, { ...SH, variant: "Forbidden" });
    await refusedNoWrite(writes, () => execute(d, cap.stranger.client), -32003, { ...SH, variant: "NotFound" });
  });
});

describe("dividends put to a vote", () => {
  const vote = (who: typeof cap.alice, proposal: string, value: "for" | "against") =>
    who.client.callOk("governanceservice.cast_vote", {
      proposal_id: proposal,
      voter_id: who.resident,
      vote_value: value,
      password: PASSWORD,
    });
  const tally = (proposal: string) =>
    cap.director.client.callOk("governanceservice.tally_votes", { proposal_id: proposal });

  test("with DIVIDEND_REQUIRES_VOTE the dividend is proposed; the passed vote approves it (approved_at), then it pays", async () => {
    await setUp({ dividends: { requireVote: true, voteDays: 3 } });
    const d = ok(await initiate());
    expect(d).toMatchObject({ status: "proposed", requires_vote: true, approved_at: null });
    const [proposal] = await sql(t, `select status, category, kind from proposal where sid = ?`, [d.proposal_id]);
    expect(proposal).toEqual({ status: "active", category: "financial", kind: "ordinary" });
    await refusedNoWrite(writes, () => execute(d), -32005, { ...SH, variant: "InvalidState" });
    const id = d.proposal_id as string;
    await vote(cap.alice, id, "for");
    await vote(cap.bob, id, "for");
    t.clock.advance(60);
    expect(await tally(id)).toMatchObject({ status: "passed" });
    const listed = ok(await cap.director.client.call("shareholderservice.list_dividends", { company_id: cap.company }));
    expect(listed.items[0]).toMatchObject({ sid: d.sid, status: "approved", approved_at: t.clock.now().toISOString() });
    expect(ok(await execute(d)).status).toBe("processing");
    expect((await balanceOf(t, source.sid)).balance).toBe(400);
  });

  test("a rejected vote cancels the dividend: it never pays (issue 30)", async () => {
    await setUp({ dividends: { requireVote: true, voteDays: 3 } });
    const d = ok(await initiate());
    const id = d.proposal_id as string;
    await vote(cap.alice, id, "against");
    await vote(cap.bob, id, "for");
    expect(await tally(id)).toMatchObject({ status: "rejected" });
    const listed = ok(await cap.director.client.call("shareholderservice.list_dividends", { company_id: cap.company }));
    expect(listed.items[0]).toMatchObject({ sid: d.sid, status: "cancelled", approved_at: null });
    await refusedNoWrite(writes, () => execute(d), -32005, { ...SH, variant: "InvalidState" });
    expect((await balanceOf(t, source.sid)).balance).toBe(500);
  });

  test("a vote nobody tallied expires, and the dividend is cancelled with it", async () => {
    await setUp({ dividends: { requireVote: true, voteDays: 3 } });
    const d = ok(await initiate());
    const later = new Date(t.clock.now().getTime() + 30 * 86_400_000);
    expect(await sweepExpiredProposals(t.app.runtime, later)).toEqual([d.proposal_id]);
    const listed = ok(await cap.director.client.call("shareholderservice.list_dividends", { company_id: cap.company }));
    expect(listed.items[0]).toMatchObject({ sid: d.sid, status: "cancelled" });
  });
});

describe("list_dividends", () => {
  test("lists the company's dividends newest first with their payments; strangers get NotFound", async () => {
    const a = ok(await initiate({ total_amount: 10 }));
    t.clock.advance(1);
    const b = ok(await initiate({ total_amount: 20, distribution_date: t.clock.now().toISOString() }));
    const list = ok(await cap.bob.client.call("shareholderservice.list_dividends", { company_id: cap.company }));
    expect(list.items.map((x) => x.sid)).toEqual([b.sid, a.sid]);
    expect(list.items[0]?.payments).toHaveLength(2);
    const err = errorOf(
      await cap.stranger.client.call("shareholderservice.list_dividends", { company_id: cap.company }),
    );
    expect(err.code).toBe(-32003);
  });
});
