import { expect, test } from "vitest";
import type { TreasuryAccountResult } from "../../generated/types.ts";
import { usingPostgres } from "../support/database.ts";
import { sql } from "../support/helpers.ts";
import { companyAccount, fund, insertCompany, person, residentAccount, startTreasuryApp } from "./support.ts";

/** Runs the tasks with at most `limit` in flight. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}

/** A deterministic sequence (no flaky seeds): Park-Miller. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

type Outcome = { ok: boolean; variant?: string; sid?: string; status?: string };
const outcome = (r: { result: { sid: string; status: string } } | { error: { data?: { variant?: string } } }) =>
  "result" in r
    ? { ok: true, sid: r.result.sid, status: r.result.status }
    : { ok: false, variant: r.error.data?.variant ?? "?" };

test.runIf(usingPostgres)(
  "concurrent transfers, approvals, cancellations and exchanges on PostgreSQL conserve money per currency",
  async () => {
    const t = await startTreasuryApp();
    const admin = await t.admin();
    const owner = await t.register("trs-cc-owner@example.org");
    const company = await insertCompany(t, owner.userId);
    const dirA = await person(t, company, "director");
    const dirB = await person(t, company, "director");
    const resident = await person(t, null, null);
    const eur: TreasuryAccountResult[] = [];
    for (let i = 0; i < 4; i++) {
      eur.push(await companyAccount(dirA.client, company, { currency: "EUR", approval_threshold: i === 0 ? 8 : 0 }));
    }
    eur.push(await residentAccount(resident, { currency: "EUR" }));
    const usd = [
      await companyAccount(dirA.client, company, { currency: "USD" }),
      await companyAccount(dirA.client, company, { currency: "USD" }),
    ];
    const funded = { EUR: 0, USD: 0 };
    for (const a of [...eur, ...usd]) {
      await fund(admin, a, 100);
      funded[a.currency as "EUR" | "USD"] += 100;
    }
    const rnd = random(42);
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)] as T;
    const amount = () => Math.round(1 + rnd() * 1099) / 100; // 0.01 .. 11.00

    const transfer = (from: TreasuryAccountResult, to: TreasuryAccountResult) => async (): Promise<Outcome> => {
      const actor = from.owner_type === "resident" ? resident : dirA;
      return outcome(
        await actor.client.call("treasuryoperationsservice.initiate_transfer", {
          from_account_id: from.sid,
          to_account_id: to.sid,
          amount: amount(),
          currency: from.currency,
          initiated_by: actor.resident,
        }),
      );
    };
    const companyEur = eur.slice(0, 4);
    const twoOf = <T>(xs: T[]): [T, T] => {
      const a = pick(xs);
      let b = pick(xs);
      while (b === a) b = pick(xs);
      return [a, b];
    };
    // Quotes issued before the run (the server's rate, 60 seconds to use them; the test clock stands still).
    const quotes: { id: string; rate: number; from: TreasuryAccountResult; to: TreasuryAccountResult; amt: number }[] =
      [];
    for (let i = 0; i < 60; i++) {
      const toUsd = i % 2 === 0;
      const from = toUsd ? (companyEur[i % 4] as TreasuryAccountResult) : (usd[i % 2] as TreasuryAccountResult);
      const to = toUsd ? (usd[i % 2] as TreasuryAccountResult) : (companyEur[(i + 1) % 4] as TreasuryAccountResult);
      const amt = Math.round((1 + amount()) * 100) / 100;
      const q = await dirA.client.callOk("treasuryoperationsservice.get_exchange_quote", {
        from_currency: from.currency,
        to_currency: to.currency,
        amount: amt,
      });
      quotes.push({ id: q.quote_id, rate: q.exchange_rate, from, to, amt });
    }
    const exchange = (q: (typeof quotes)[number]) => async (): Promise<Outcome> =>
      outcome(
        await dirA.client.call("treasuryoperationsservice.execute_exchange", {
          owner_type: "company",
          owner_id: company,
          from_account_id: q.from.sid,
          to_account_id: q.to.sid,
          from_amount: q.amt,
          from_currency: q.from.currency,
          exchange_rate: q.rate,
          initiated_by: dirA.resident,
        }),
      );

    const phase1: (() => Promise<Outcome>)[] = [];
    for (let i = 0; i < 300; i++) phase1.push(transfer(...twoOf(eur)));
    for (let i = 0; i < 60; i++) phase1.push(transfer(...twoOf(usd)));
    for (const q of quotes) phase1.push(exchange(q));
    const started = Date.now();
    const first = await pool(phase1, 40);

    // Phase 2: every pending transfer is approved and cancelled at the same time (one wins), among more transfers.
    const pending = first.filter((o) => o.ok && o.status === "pending").map((o) => o.sid as string);
    expect(pending.length).toBeGreaterThan(0);
    const phase2: (() => Promise<Outcome>)[] = [];
    for (const sid of pending) {
      phase2.push(async () =>
        outcome(
          await dirB.client.call("treasuryoperationsservice.approve_transfer", {
            transfer_id: sid,
            approved_by: dirB.resident,
          }),
        ),
      );
      phase2.push(async () =>
        outcome(await dirA.client.call("treasuryoperationsservice.cancel_transfer", { transfer_id: sid })),
      );
    }
    for (let i = 0; i < 100; i++) phase2.push(transfer(...twoOf(companyEur)));
    const second = await pool(phase2, 40);
    const elapsed = Date.now() - started;

    const refused = new Set([...first, ...second].filter((o) => !o.ok).map((o) => o.variant));
    expect(
      [...refused].every((v) => v === "InsufficientFunds" || v === "InvalidState"),
      [...refused].join(),
    ).toBe(true);

    // Exactly one of approve / cancel won for every pending transfer; none is left pending.
    const decided = await sql<{ status: string; n: string }>(
      t,
      `select status, count(*) as n from fund_transfer where sid in (${pending.map(() => "?").join(", ")}) group by status`,
      pending,
    );
    expect(decided.reduce((s, r) => s + Number(r.n), 0)).toBe(pending.length);
    expect(decided.every((r) => r.status === "completed" || r.status === "cancelled")).toBe(true);

    // Every account: never negative, nothing left reserved, balance = credits - debits of its ledger rows, and the
    // balance_after values form one chain (each row's balance before is the opening 0 or another row's after).
    const accounts = await sql<{ sid: string; currency: string; balance: string; pending_out: string }>(
      t,
      `select sid, currency, balance::text, pending_out::text from treasury_account`,
    );
    for (const a of accounts) {
      expect(Number(a.balance)).toBeGreaterThanOrEqual(0);
      const [reserved] = await sql<{ total: string }>(
        t,
        `select coalesce(sum(amount + coalesce(fee_amount, 0)), 0)::text as total from fund_transfer
         where from_account_id = ? and status = 'pending'`,
        [a.sid],
      );
      expect(a.pending_out).toBe(reserved?.total === "0" ? "0.00" : reserved?.total);
      const rows = await sql<{ tx_type: string; amount: string; balance_after: string }>(
        t,
        `select tx_type, amount::text, balance_after::text from treasury_transaction where account_id = ?`,
        [a.sid],
      );
      const cents = (v: string) => Math.round(Number(v) * 100);
      const delta = (r: (typeof rows)[number]) => (r.tx_type === "credit" ? cents(r.amount) : -cents(r.amount));
      expect(rows.reduce((s, r) => s + delta(r), 0)).toBe(cents(a.balance));
      const befores = rows.map((r) => cents(r.balance_after) - delta(r)).concat(cents(a.balance));
      const afters = rows.map((r) => cents(r.balance_after)).concat(0);
      expect(befores.sort((x, y) => x - y)).toEqual(afters.sort((x, y) => x - y));
    }

    // Every completed transfer has its debit and credit rows (same amount, its two accounts); others have none.
    const transfers = await sql<{
      sid: string;
      status: string;
      from_account_id: string;
      to_account_id: string;
      amount: string;
    }>(t, `select sid, status, from_account_id, to_account_id, amount::text from fund_transfer`);
    const legs = await sql<{ fund_transfer_id: string; account_id: string; tx_type: string; amount: string }>(
      t,
      `select fund_transfer_id, account_id, tx_type, amount::text from treasury_transaction where fund_transfer_id is not null`,
    );
    const legsOf = new Map<string, typeof legs>();
    for (const l of legs) legsOf.set(l.fund_transfer_id, [...(legsOf.get(l.fund_transfer_id) ?? []), l]);
    for (const tr of transfers) {
      const mine = (legsOf.get(tr.sid) ?? []).map((l) => [l.tx_type, l.account_id, l.amount]).sort();
      if (tr.status === "completed") {
        expect(mine).toEqual([
          ["credit", tr.to_account_id, tr.amount],
          ["debit", tr.from_account_id, tr.amount],
        ]);
      } else {
        expect(mine).toEqual([]);
      }
    }

    // Per currency: balances = funded - sold + bought, where sold includes the reported fee and bought is
    // (sold - fee) x the quoted rate; every exchange has its two rows; no quote used twice.
    const exchanges = await sql<{
      sid: string;
      from_currency: string;
      to_currency: string;
      from_amount: string;
      to_amount: string;
      fee_amount: string;
    }>(
      t,
      `select sid, from_currency, to_currency, from_amount::text, to_amount::text, fee_amount::text from exchange_transaction`,
    );
    const exOk = first.filter((o) => o.ok && o.status === "completed").length;
    expect(exchanges.length).toBeLessThanOrEqual(60);
    const used = await sql<{ n: string }>(t, `select count(*) as n from exchange_quote where exchange_id is not null`);
    expect(Number(used[0]?.n)).toBe(exchanges.length);
    const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
    const c = (v: string) => Math.round(Number(v) * 100);
    for (const currency of ["EUR", "USD"] as const) {
      const balances = sum(accounts.filter((a) => a.currency === currency).map((a) => c(a.balance)));
      const sold = exchanges.filter((x) => x.from_currency === currency);
      const bought = exchanges.filter((x) => x.to_currency === currency);
      const fees = sum(sold.map((x) => c(x.fee_amount)));
      const soldNet = sum(sold.map((x) => c(x.from_amount) - c(x.fee_amount)));
      expect(balances + fees + soldNet - sum(bought.map((x) => c(x.to_amount)))).toBe(funded[currency] * 100);
    }
    const exLegs = await sql<{ exchange_id: string; n: string }>(
      t,
      `select exchange_id, count(*) as n from treasury_transaction where exchange_id is not null group by exchange_id`,
    );
    expect(exLegs.length).toBe(exchanges.length);
    expect(exLegs.every((r) => Number(r.n) === 2)).toBe(true);
    console.info(
      `treasury concurrency: ${first.length + second.length} calls in ${elapsed} ms, ${pending.length} pending decided, ` +
        `${exchanges.length} exchanges, ${exOk} completed results in phase 1`,
    );
  },
  180_000,
);
