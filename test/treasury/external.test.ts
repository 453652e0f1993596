import { beforeAll, describe, expect, test } from "vitest";
import type { TreasuryAccountResult } from "../../generated/types.ts";
import { settleExternalTransfers } from "../../src/services/shared/treasury/settlement-sweep.ts";
import type { Client, TestApp } from "../support/app.ts";
import { errorOf, sql } from "../support/helpers.ts";
import {
  balanceOf,
  companyAccount,
  fund,
  insertCompany,
  type Person,
  person,
  refusedNoWrite,
  startTreasuryApp,
  WALLET,
} from "./support.ts";

let t: TestApp;
let company: string;
let dirA: Person;
let dirB: Person;
let admin: Client;

const IBAN = "GB82WEST12345698765432";

beforeAll(async () => {
  t = await startTreasuryApp();
  const owner = await t.register("trs-ext-owner@example.org");
  company = await insertCompany(t, owner.userId);
  dirA = await person(t, company, "director");
  dirB = await person(t, company, "director");
  admin = await t.admin();
});

async function account(funded: number, data: Record<string, unknown> = {}) {
  const a = await companyAccount(dirA.client, company, data);
  if (funded > 0) await fund(admin, a, funded);
  return a;
}

const payout = (from: TreasuryAccountResult, amount: number, extra: Record<string, unknown> = {}) =>
  dirA.client.call("treasuryoperationsservice.initiate_external_transfer", {
    from_account_id: from.sid,
    to_address: IBAN,
    to_name: "Acme Ltd",
    amount,
    currency: from.currency,
    initiated_by: dirA.resident,
    ...extra,
  });

const ok = async <R>(p: Promise<{ result: R } | { error: unknown }>): Promise<R> => {
  const r = await p;
  if ("error" in r) throw new Error(JSON.stringify(r.error));
  return r.result;
};

const settle = () => settleExternalTransfers(t.app.runtime, t.clock.now());

const rowsOf = (transferId: string) =>
  sql(
    t,
    `select tx_type, amount::text, balance_after::text, status from treasury_transaction
     where fund_transfer_id = ? order by created_at, tx_type desc`,
    [transferId],
  );

describe("initiate_external_transfer", () => {
  test("amount plus the 0.5% fee leave at once; processing with a pending debit row; settles to completed", async () => {
    const from = await account(200);
    const tr = await ok(payout(from, 100));
    expect(tr).toMatchObject({
      status: "processing",
      to_account_id: null,
      to_external_address: IBAN,
      to_external_name: "Acme Ltd",
      amount: 100,
      fee_amount: 0.5,
      requires_approval: false,
      completed_at: null,
    });
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 99.5, pending_out: 0 });
    expect(await rowsOf(tr.sid)).toEqual([
      { tx_type: "debit", amount: "100.50", balance_after: "99.50", status: "pending" },
    ]);
    expect(await settle()).toBe(0); // the sandbox settles 60 seconds after submission
    t.clock.advance(60);
    expect(await settle()).toBe(1);
    const [row] = await sql(t, `select status, completed_at from fund_transfer where sid = ?`, [tr.sid]);
    expect(row.status).toBe("completed");
    expect(new Date(row.completed_at).toISOString()).toBe(t.clock.now().toISOString());
    expect((await rowsOf(tr.sid)).map((r) => r.status)).toEqual(["confirmed"]);
    const [bankRow] = await sql(t, `select transaction_hash from treasury_transaction where fund_transfer_id = ?`, [
      tr.sid,
    ]);
    expect(bankRow.transaction_hash).toBeNull(); // bank rails have no chain hash
    expect(await settle()).toBe(0);
  });

  test("a payout the provider fails at settlement returns amount and fee with a credit row", async () => {
    const from = await account(50);
    const tr = await ok(payout(from, 10, { to_name: "Bad Beneficiary [fail]" }));
    expect((await balanceOf(t, from.sid)).balance).toBe(39.95);
    t.clock.advance(61);
    expect(await settle()).toBe(1);
    const [row] = await sql(t, `select status, completed_at from fund_transfer where sid = ?`, [tr.sid]);
    expect(row).toEqual({ status: "failed", completed_at: null });
    expect(await rowsOf(tr.sid)).toEqual([
      { tx_type: "debit", amount: "10.05", balance_after: "39.95", status: "failed" },
      { tx_type: "credit", amount: "10.05", balance_after: "50.00", status: "confirmed" },
    ]);
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 50, pending_out: 0 });
  });

  test("a payout on hold stays processing", async () => {
    const from = await account(5);
    const tr = await ok(payout(from, 1, { to_name: "Slow Bank [hold]" }));
    t.clock.advance(120);
    await settle();
    const [row] = await sql(t, `select status from fund_transfer where sid = ?`, [tr.sid]);
    expect(row.status).toBe("processing");
  });

  test("provider refusals write nothing: ProviderRejected, ProviderUnavailable", async () => {
    const from = await account(50);
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => payout(from, 1, { to_name: "X [reject]" }), -32009, e, "ProviderRejected");
    await refusedNoWrite(t, () => payout(from, 1, { to_name: "X [unavailable]" }), -32009, e, "ProviderUnavailable");
  });

  test("the fee counts towards the balance: 100 from 100 is InsufficientFunds", async () => {
    const from = await account(100);
    const r = await payout(from, 100);
    expect(errorOf(r)).toMatchObject({ data: { variant: "InsufficientFunds", available: 100, needed: 100.5 } });
    await refusedNoWrite(t, () => payout(from, 100), -32006, "TreasuryOperationsError", "InsufficientFunds");
    await ok(payout(from, 99.5)); // 99.50 + 0.50 fee (0.4975 rounds half-even to 0.50)
    expect((await balanceOf(t, from.sid)).balance).toBe(0);
  });

  test("refuses what the rails cannot pay, a currency mismatch, a bad amount and a blank name", async () => {
    const bank = await account(10);
    const wallet = await account(10, WALLET);
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => payout(bank, 1, { to_address: "GB00WEST12345698765432" }), -32006, e, "InvalidInput");
    await refusedNoWrite(t, () => payout(wallet, 1, { to_address: IBAN }), -32006, e, "InvalidInput");
    await refusedNoWrite(t, () => payout(bank, 1, { to_name: "  " }), -32006, e, "InvalidInput");
    await refusedNoWrite(t, () => payout(bank, 1, { currency: "USD" }), -32006, e, "CurrencyMismatch");
    await refusedNoWrite(t, () => payout(bank, 0.005), -32006, e, "InvalidAmount");
    const w = await ok(
      dirA.client.call("treasuryoperationsservice.initiate_external_transfer", {
        from_account_id: wallet.sid,
        to_address: "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
        to_name: "Chain Payee",
        amount: 1,
        currency: "USDC",
        initiated_by: dirA.resident,
      }),
    );
    expect(w).toMatchObject({ status: "processing", fee_amount: 0.01 });
    t.clock.advance(60);
    await settle();
    const [chain] = await sql(
      t,
      `select status, transaction_hash from treasury_transaction where fund_transfer_id = ?`,
      [w.sid],
    );
    expect(chain.status).toBe("confirmed");
    expect(chain.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

describe("external transfers above the threshold", () => {
  test("reserve amount plus fee; approval hands them to the provider (processing); cancel releases all", async () => {
    const from = await account(100, { approval_threshold: 20 });
    const tr = await ok(payout(from, 50));
    expect(tr).toMatchObject({ status: "pending", fee_amount: 0.25 });
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 100, pending_out: 50.25 });
    const done = await ok(
      dirB.client.call("treasuryoperationsservice.approve_transfer", {
        transfer_id: tr.sid,
        approved_by: dirB.resident,
      }),
    );
    expect(done).toMatchObject({ status: "processing", approved_by: dirB.resident });
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 49.75, pending_out: 0 });
    const e = "TreasuryOperationsError";
    const cancel = (id: string) => dirA.client.call("treasuryoperationsservice.cancel_transfer", { transfer_id: id });
    await refusedNoWrite(t, () => cancel(tr.sid), -32005, e, "InvalidState"); // processing: too late to cancel
    const other = await ok(payout(from, 30));
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 49.75, pending_out: 30.15 });
    await ok(cancel(other.sid));
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 49.75, pending_out: 0 });
    t.clock.advance(60);
    await settle();
    const [row] = await sql(t, `select status from fund_transfer where sid = ?`, [tr.sid]);
    expect(row.status).toBe("completed");
  });

  test("a provider rejection at approval fails the transfer and releases the reservation", async () => {
    const from = await account(100, { approval_threshold: 20 });
    const tr = await ok(payout(from, 50, { to_name: "Sanctioned [reject]" }));
    const r = await ok(
      dirB.client.call("treasuryoperationsservice.approve_transfer", {
        transfer_id: tr.sid,
        approved_by: dirB.resident,
      }),
    );
    expect(r).toMatchObject({ status: "failed", approved_by: dirB.resident });
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 100, pending_out: 0 });
    expect(await rowsOf(tr.sid)).toEqual([]);
  });

  test("an unavailable provider refuses the approval and changes nothing", async () => {
    const from = await account(100, { approval_threshold: 20 });
    const tr = await ok(payout(from, 50, { to_name: "Later [unavailable]" }));
    await refusedNoWrite(
      t,
      () =>
        dirB.client.call("treasuryoperationsservice.approve_transfer", {
          transfer_id: tr.sid,
          approved_by: dirB.resident,
        }),
      -32009,
      "TreasuryOperationsError",
      "ProviderUnavailable",
    );
  });
});
