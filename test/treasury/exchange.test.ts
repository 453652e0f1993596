import { beforeAll, describe, expect, test } from "vitest";
import type { ExchangeQuoteResult, TreasuryAccountResult } from "../../generated/types.ts";
import { sweepTreasury } from "../../src/services/shared/treasury/settlement-sweep.ts";
import type { Client, TestApp } from "../support/app.ts";
import { staffedCompanies } from "../support/entities.ts";
import { errorOf, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import {
  balanceOf,
  companyAccount,
  fund,
  insertProxy,
  type Person,
  person,
  refusedNoWrite,
  residentAccount,
  startTreasuryApp,
} from "./support.ts";

let t: TestApp;
let company: string;
let other: string;
let dirA: Person;
let dirB: Person;
let member: Person;
let outsider: Person;
let admin: Client;

beforeAll(async () => {
  t = await startTreasuryApp();
  ({
    company,
    other,
    director: dirA,
    shareholder: member,
    outsider,
  } = await staffedCompanies(t, "trs-fx-owner@example.org"));
  dirB = await person(t, company, "director");
  admin = await t.admin();
});

const ok = async <R>(p: Promise<{ result: R } | { error: unknown }>): Promise<R> => {
  const r = await p;
  if ("error" in r) throw new Error(JSON.stringify(r.error));
  return r.result;
};

const quote = (who: Person, from: string, to: string, amount: number) =>
  who.client.call("treasuryoperationsservice.get_exchange_quote", {
    from_currency: from,
    to_currency: to,
    amount,
  });

async function accounts(funded = 200) {
  const eur = await companyAccount(dirA.client, company, { currency: "EUR" });
  const usd = await companyAccount(dirA.client, company, { currency: "USD" });
  if (funded > 0) await fund(admin, eur, funded);
  return { eur, usd };
}

const execute = (
  who: Person,
  from: TreasuryAccountResult,
  to: TreasuryAccountResult,
  q: Pick<ExchangeQuoteResult, "from_amount" | "exchange_rate">,
  extra: Record<string, unknown> = {},
) =>
  who.client.call("treasuryoperationsservice.execute_exchange", {
    owner_type: "company",
    owner_id: company,
    from_account_id: from.sid,
    to_account_id: to.sid,
    from_amount: q.from_amount,
    from_currency: from.currency,
    exchange_rate: q.exchange_rate,
    initiated_by: who.resident,
    ...extra,
  });

describe("get_exchange_quote", () => {
  test("crosses the sandbox EUR rates, takes the 0.5% fee and holds 60 seconds, stored for the caller", async () => {
    const q = await ok(quote(dirA, "EUR", "USD", 100));
    expect(q).toEqual({
      quote_id: expect.any(String),
      from_currency: "EUR",
      to_currency: "USD",
      from_amount: 100,
      exchange_rate: 1.0869565217,
      fee_percentage: 0.5,
      fee_amount: 0.5,
      to_amount: 108.15,
      rate_expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    const [row] = await sql(
      t,
      `select user_id, exchange_rate::text as rate, to_amount::text as to_amount, exchange_id from exchange_quote where sid = ?`,
      [q.quote_id],
    );
    expect(row).toEqual({ user_id: dirA.client.userId, rate: "1.0869565217", to_amount: "108.15", exchange_id: null });
  });

  test.each([
    ["the same currency twice", "EUR", "EUR", 10, "InvalidInput"],
    ["an unknown currency", "EUR", "XYZ", 10, "InvalidInput"],
    ["a zero amount", "EUR", "USD", 0, "InvalidAmount"],
    ["three decimals", "EUR", "USD", 1.001, "InvalidAmount"],
    ["an amount that buys nothing after the fee", "TZS", "EUR", 0.01, "InvalidAmount"],
  ])("refuses %s, nothing written", async (_w, from, to, amount, variant) => {
    await refusedNoWrite(t, () => quote(dirA, from, to, amount), -32006, "TreasuryOperationsError", variant);
  });
});

describe("execute_exchange", () => {
  test("settles at the quoted rate: debit of from_amount, credit of to_amount, quote used once", async () => {
    const { eur, usd } = await accounts();
    const q = await ok(quote(dirA, "EUR", "USD", 120));
    const x = await ok(execute(dirA, eur, usd, q));
    expect(x).toMatchObject({
      owner_type: "company",
      owner_id: company,
      from_amount: 120,
      from_currency: "EUR",
      to_amount: 129.78,
      to_currency: "USD",
      exchange_rate: 1.0869565217,
      fee_percentage: 0.5,
      fee_amount: 0.6,
      status: "completed",
      rate_expires_at: q.rate_expires_at,
      initiated_by: dirA.resident,
      completed_at: t.clock.now().toISOString(),
    });
    expect((await balanceOf(t, eur.sid)).balance).toBe(80);
    expect((await balanceOf(t, usd.sid)).balance).toBe(129.78);
    const rows = await sql(
      t,
      `select account_id, tx_type, amount::text, balance_after::text from treasury_transaction
       where exchange_id = ? order by tx_type`,
      [x.sid],
    );
    expect(rows).toEqual([
      { account_id: usd.sid, tx_type: "credit", amount: "129.78", balance_after: "129.78" },
      { account_id: eur.sid, tx_type: "debit", amount: "120.00", balance_after: "80.00" },
    ]);
    const [used] = await sql(t, `select exchange_id from exchange_quote where sid = ?`, [q.quote_id]);
    expect(used.exchange_id).toBe(x.sid);
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => execute(dirA, eur, usd, q), -32005, e, "AlreadyUsed");
    const list = await member.client.callOk("treasuryoperationsservice.list_exchanges", {
      owner_type: "company",
      owner_id: company,
    });
    expect(list.items.map((i) => i.sid)).toContain(x.sid);
  });

  test("the caller's unexpired quote with exactly that rate and amount is the one used, once", async () => {
    const { eur, usd } = await accounts();
    const q = await ok(quote(dirA, "EUR", "USD", 50));
    const x = await ok(execute(dirA, eur, usd, { from_amount: 50, exchange_rate: q.exchange_rate }));
    expect(x.to_amount).toBe(q.to_amount);
  });

  test("a rate or amount that differs from the quote is QuoteMismatch, nothing written", async () => {
    const { eur, usd } = await accounts();
    const q = await ok(quote(dirA, "EUR", "USD", 100));
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => execute(dirA, eur, usd, { ...q, exchange_rate: 1.09 }), -32006, e, "QuoteMismatch");
    await refusedNoWrite(t, () => execute(dirA, eur, usd, { ...q, from_amount: 99 }), -32006, e, "QuoteMismatch");
    await refusedNoWrite(t, () => execute(dirA, eur, usd, { ...q, exchange_rate: 1.2 }), -32006, e, "QuoteMismatch");
  });

  test("another caller's quote is QuoteMismatch, even for a director of the same company", async () => {
    const { eur, usd } = await accounts();
    const q = await ok(quote(dirB, "EUR", "USD", 77.77));
    await refusedNoWrite(t, () => execute(dirA, eur, usd, q), -32006, "TreasuryOperationsError", "QuoteMismatch");
  });

  test("an expired quote is Expired, nothing written", async () => {
    const { eur, usd } = await accounts();
    const q = await ok(quote(dirA, "EUR", "USD", 100));
    t.clock.advance(60);
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => execute(dirA, eur, usd, q), -32005, e, "Expired");
  });

  test("refuses a short balance, currency mismatches, accounts of another owner and non-directors", async () => {
    const { eur, usd } = await accounts(10);
    const q = await ok(quote(dirA, "EUR", "USD", 100));
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => execute(dirA, eur, usd, q), -32006, e, "InsufficientFunds");
    await refusedNoWrite(t, () => execute(dirA, eur, usd, q, { from_currency: "USD" }), -32006, e, "CurrencyMismatch");
    const eur2 = await companyAccount(dirA.client, company, { currency: "EUR" });
    await refusedNoWrite(t, () => execute(dirA, eur, eur2, q), -32006, e, "CurrencyMismatch");
    const foreign = await companyAccount(outsider.client, other, { currency: "USD" });
    await refusedNoWrite(t, () => execute(dirA, eur, foreign, q), -32003, e, "NotFound");
    const mq = await ok(quote(member, "EUR", "USD", 1));
    await refusedNoWrite(t, () => execute(member, eur, usd, mq), -32002, e, "Forbidden");
    await refusedNoWrite(t, () => execute(outsider, eur, usd, q), -32003, e, "NotFound");
    await refusedNoWrite(t, () => execute(dirA, eur, usd, q, { from_amount: 0 }), -32006, e, "InvalidAmount");
  });

  test("list_exchanges is NotFound for a stranger", async () => {
    const r = await outsider.client.call("treasuryoperationsservice.list_exchanges", {
      owner_type: "company",
      owner_id: company,
    });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });
});

describe("resident exchanges", () => {
  test("the owner and an effective proxy holder exchange between the resident's accounts; strangers get NotFound", async () => {
    const owner = await person(t, null, null);
    const agent = await person(t, null, null);
    await insertProxy(t, agent.resident, owner.resident);
    const eur = await residentAccount(owner, { currency: "EUR" });
    const gbp = await residentAccount(owner, { currency: "GBP" });
    await fund(admin, eur, 50);
    const run = async (who: Person, amount: number) => {
      const q = await ok(quote(who, "EUR", "GBP", amount));
      return ok(
        who.client.call("treasuryoperationsservice.execute_exchange", {
          owner_type: "resident",
          owner_id: owner.resident,
          from_account_id: eur.sid,
          to_account_id: gbp.sid,
          from_amount: amount,
          from_currency: "EUR",
          exchange_rate: q.exchange_rate,
          initiated_by: who.resident,
        }),
      );
    };
    const mine = await run(owner, 20);
    expect(mine).toMatchObject({ owner_type: "resident", exchange_rate: 0.8547008547, to_amount: 17.01 });
    const theirs = await run(agent, 10);
    expect(theirs.initiated_by).toBe(agent.resident);
    expect(await balanceOf(t, eur.sid)).toEqual({ balance: 20, pending_out: 0 });
    const list = await agent.client.callOk("treasuryoperationsservice.list_exchanges", {
      owner_type: "resident",
      owner_id: owner.resident,
    });
    expect(list.items.map((i) => i.sid)).toEqual([theirs.sid, mine.sid].sort().reverse());
    const r = await outsider.client.call("treasuryoperationsservice.list_exchanges", {
      owner_type: "resident",
      owner_id: owner.resident,
    });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });
});

describe("the treasury sweep", () => {
  test("deletes quotes a day past their expiry that were never used, keeps the rest", async () => {
    const { eur, usd } = await accounts();
    const usedQuote = await ok(quote(dirA, "EUR", "USD", 10));
    await ok(execute(dirA, eur, usd, usedQuote));
    const stale = await ok(quote(dirA, "EUR", "USD", 11));
    t.clock.advance(24 * 3600 + 61);
    const recent = await insertRow(t.app.runtime.orm, "ExchangeQuote", {
      user_id: dirA.client.userId,
      from_currency: "EUR",
      to_currency: "USD",
      from_amount: 1,
      exchange_rate: 1.0869565217,
      fee_percentage: 0.5,
      fee_amount: 0.01,
      to_amount: 1.08,
      expires_at: t.clock.now(),
      exchange_id: null,
    });
    const before = await sql(t, `select sid from exchange_quote`);
    const r = await sweepTreasury(t.app.runtime, t.clock.now());
    const after = (await sql(t, `select sid from exchange_quote`)).map((q) => q.sid);
    expect(r.purged).toBeGreaterThan(0);
    expect(r.purged).toBe(before.length - after.length);
    expect(after).toContain(usedQuote.quote_id);
    expect(after).toContain(recent["sid"]);
    expect(after).not.toContain(stale.quote_id);
  });
});
