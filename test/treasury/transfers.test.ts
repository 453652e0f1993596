import { beforeAll, describe, expect, test } from "vitest";
import type { TreasuryAccountResult } from "../../generated/types.ts";
import type { Client, TestApp } from "../support/app.ts";
import { staffedCompanies } from "../support/entities.ts";
import { errorOf, sql } from "../support/helpers.ts";
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
let dirA: Person;
let dirB: Person;
let member: Person;
let outsider: Person;
let admin: Client;

beforeAll(async () => {
  t = await startTreasuryApp();
  ({ company, director: dirA, shareholder: member, outsider } = await staffedCompanies(t, "trs-tr-owner@example.org"));
  dirB = await person(t, company, "director");
  admin = await t.admin();
});

async function pair(funded = 100, threshold = 0) {
  const from = await companyAccount(dirA.client, company, { approval_threshold: threshold });
  const to = await companyAccount(dirA.client, company);
  if (funded > 0) await fund(admin, from, funded);
  return { from, to };
}

const send = (
  who: Person,
  from: TreasuryAccountResult,
  to: TreasuryAccountResult,
  amount: number,
  extra: Record<string, unknown> = {},
) =>
  who.client.call("treasuryoperationsservice.initiate_transfer", {
    from_account_id: from.sid,
    to_account_id: to.sid,
    amount,
    currency: from.currency,
    initiated_by: who.resident,
    ...extra,
  });

const ok = async <R>(p: Promise<{ result: R } | { error: unknown }>): Promise<R> => {
  const r = await p;
  if ("error" in r) throw new Error(JSON.stringify(r.error));
  return r.result;
};

const approve = (who: Person, transferId: string, approvedBy = who.resident) =>
  who.client.call("treasuryoperationsservice.approve_transfer", { transfer_id: transferId, approved_by: approvedBy });

const ledgerOf = (transferId: string) =>
  sql(
    t,
    `select account_id, tx_type, amount::text, balance_after::text, status from treasury_transaction
     where fund_transfer_id = ? order by tx_type`,
    [transferId],
  );

describe("initiate_transfer at or below the threshold", () => {
  test("completes at once: both balances move, a debit and a credit row with balance_after", async () => {
    const { from, to } = await pair(100, 50);
    const tr = await ok(send(dirA, from, to, 50, { reference: " invoice 7 " }));
    expect(tr).toMatchObject({
      status: "completed",
      requires_approval: false,
      approval_threshold: 50,
      amount: 50,
      fee_amount: null,
      reference: "invoice 7",
      initiated_by: dirA.resident,
      approved_by: null,
      completed_at: t.clock.now().toISOString(),
    });
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 50, pending_out: 0 });
    expect(await balanceOf(t, to.sid)).toEqual({ balance: 50, pending_out: 0 });
    const rows = await ledgerOf(tr.sid);
    expect(rows).toEqual([
      { account_id: to.sid, tx_type: "credit", amount: "50.00", balance_after: "50.00", status: "confirmed" },
      { account_id: from.sid, tx_type: "debit", amount: "50.00", balance_after: "50.00", status: "confirmed" },
    ]);
    const [debit] = await sql(
      t,
      `select sid from treasury_transaction where fund_transfer_id = ? and tx_type = 'debit'`,
      [tr.sid],
    );
    expect(tr.transaction_id).toBe(debit.sid);
  });

  test("moves to an account of another owner (a resident) in the same currency", async () => {
    const { from } = await pair(10);
    const payee = await person(t, null, null);
    const to = await residentAccount(payee);
    await ok(send(dirA, from, to, 10));
    expect((await balanceOf(t, to.sid)).balance).toBe(10);
    expect((await balanceOf(t, from.sid)).balance).toBe(0);
  });

  test.each([
    ["zero", 0],
    ["negative", -1],
    ["three decimals", 0.001],
  ])("refuses a %s amount (InvalidAmount), nothing written", async (_w, amount) => {
    const { from, to } = await pair(10);
    await refusedNoWrite(t, () => send(dirA, from, to, amount), -32006, "TreasuryOperationsError", "InvalidAmount");
  });

  test("refuses a short balance (InsufficientFunds with what is available), nothing written", async () => {
    const { from, to } = await pair(10);
    const r = await send(dirA, from, to, 10.01);
    expect(errorOf(r)).toMatchObject({
      code: -32006,
      data: { variant: "InsufficientFunds", available: 10, needed: 10.01 },
    });
    await refusedNoWrite(t, () => send(dirA, from, to, 10.01), -32006, "TreasuryOperationsError", "InsufficientFunds");
  });

  test("refuses currency mismatches, the same account twice, inactive and unknown accounts", async () => {
    const { from, to } = await pair(10);
    const usd = await companyAccount(dirA.client, company, { currency: "USD" });
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => send(dirA, from, to, 1, { currency: "USD" }), -32006, e, "CurrencyMismatch");
    await refusedNoWrite(t, () => send(dirA, from, usd, 1), -32006, e, "CurrencyMismatch");
    await refusedNoWrite(t, () => send(dirA, from, from, 1), -32006, e, "InvalidInput");
    await refusedNoWrite(t, () => send(dirA, from, { ...to, sid: "missing" }, 1), -32003, e, "NotFound");
    const closed = await companyAccount(dirA.client, company);
    await dirA.client.callOk("treasuryservice.update_company_account", {
      company_id: company,
      account_id: closed.sid,
      data: { is_active: false },
    });
    await refusedNoWrite(t, () => send(dirA, from, closed, 1), -32005, e, "InvalidState");
  });

  test("a shareholder is Forbidden, a stranger NotFound, a foreign initiated_by -32002", async () => {
    const { from, to } = await pair(10);
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => send(member, from, to, 1), -32002, e, "Forbidden");
    await refusedNoWrite(t, () => send(outsider, from, to, 1), -32003, e, "NotFound");
    await refusedNoWrite(t, () => send(dirA, from, to, 1, { initiated_by: dirB.resident }), -32002, e, "NotOwner");
  });
});

describe("transfers above the threshold", () => {
  test("wait pending with the amount reserved; what is reserved cannot be spent twice", async () => {
    const { from, to } = await pair(100, 50);
    const tr = await ok(send(dirA, from, to, 60));
    expect(tr).toMatchObject({
      status: "pending",
      requires_approval: true,
      approval_threshold: 50,
      completed_at: null,
    });
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 100, pending_out: 60 });
    const acct = await dirA.client.callOk("treasuryservice.get_company_account", {
      company_id: company,
      account_id: from.sid,
    });
    expect(acct).toMatchObject({ balance: 100, pending_out: 60, available_balance: 40 });
    expect(await ledgerOf(tr.sid)).toEqual([]);
    await refusedNoWrite(t, () => send(dirA, from, to, 40.01), -32006, "TreasuryOperationsError", "InsufficientFunds");
  });

  test("another director approves: completed, reserved amount debited, both rows written", async () => {
    const { from, to } = await pair(100, 50);
    const tr = await ok(send(dirA, from, to, 60));
    t.clock.advance(5);
    const done = await ok(approve(dirB, tr.sid));
    expect(done).toMatchObject({
      status: "completed",
      approved_by: dirB.resident,
      completed_at: t.clock.now().toISOString(),
    });
    expect(done.transaction_id).not.toBeNull();
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 40, pending_out: 0 });
    expect(await balanceOf(t, to.sid)).toEqual({ balance: 60, pending_out: 0 });
    expect((await ledgerOf(tr.sid)).map((r) => [r.tx_type, r.balance_after])).toEqual([
      ["credit", "60.00"],
      ["debit", "40.00"],
    ]);
    await refusedNoWrite(t, () => approve(dirB, tr.sid), -32005, "TreasuryOperationsError", "InvalidState");
  });

  test("the initiator cannot approve (SelfApproval), nor a shareholder (Forbidden), nor a stranger (NotFound)", async () => {
    const { from, to } = await pair(100, 50);
    const tr = await ok(send(dirA, from, to, 60));
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => approve(dirA, tr.sid), -32006, e, "SelfApproval");
    await refusedNoWrite(t, () => approve(member, tr.sid), -32002, e, "Forbidden");
    await refusedNoWrite(t, () => approve(outsider, tr.sid), -32003, e, "NotFound");
    await refusedNoWrite(t, () => approve(dirB, tr.sid, dirA.resident), -32002, e, "NotOwner");
  });

  test("cancel releases the reservation; by the initiator or another director; not twice", async () => {
    const { from, to } = await pair(100, 10);
    const a = await ok(send(dirA, from, to, 20));
    const b = await ok(send(dirA, from, to, 30));
    expect((await balanceOf(t, from.sid)).pending_out).toBe(50);
    const cancel = (who: Person, id: string) =>
      who.client.call("treasuryoperationsservice.cancel_transfer", { transfer_id: id });
    const e = "TreasuryOperationsError";
    await refusedNoWrite(t, () => cancel(member, a.sid), -32002, e, "Forbidden");
    await refusedNoWrite(t, () => cancel(outsider, a.sid), -32003, e, "NotFound");
    expect(await ok(cancel(dirA, a.sid))).toMatchObject({ status: "cancelled" });
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 100, pending_out: 30 });
    expect(await ok(cancel(dirB, b.sid))).toMatchObject({ status: "cancelled" });
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 100, pending_out: 0 });
    await refusedNoWrite(t, () => cancel(dirA, a.sid), -32005, e, "InvalidState");
    await refusedNoWrite(t, () => approve(dirB, a.sid), -32005, e, "InvalidState");
  });

  test("an account with a pending transfer cannot be deactivated", async () => {
    const { from, to } = await pair(0, 10);
    await fund(admin, from, 20);
    await ok(send(dirA, from, to, 20));
    const r = await dirA.client.call("treasuryservice.update_company_account", {
      company_id: company,
      account_id: to.sid,
      data: { is_active: false },
    });
    expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "InvalidState", open_transfers: 1 } });
  });
});

describe("resident accounts", () => {
  test("a proxy holder initiates above the threshold; the owner approves; the owner cannot approve its own", async () => {
    const owner = await person(t, null, null);
    const agent = await person(t, null, null);
    await insertProxy(t, agent.resident, owner.resident);
    const from = await residentAccount(owner, { approval_threshold: 5 });
    const to = await residentAccount(owner);
    await fund(admin, from, 20);
    const viaProxy = await ok(send(agent, from, to, 8));
    expect(viaProxy.status).toBe("pending");
    const done = await ok(approve(owner, viaProxy.sid));
    expect(done).toMatchObject({ status: "completed", approved_by: owner.resident });
    const own = await ok(send(owner, from, to, 6));
    await refusedNoWrite(t, () => approve(owner, own.sid), -32006, "TreasuryOperationsError", "SelfApproval");
    // The proxy holder may not approve the owner's transfer: approving is the owner's.
    await refusedNoWrite(t, () => approve(agent, own.sid), -32002, "TreasuryOperationsError", "Forbidden");
    // Cancelling is the owner's or the initiator's (x-target party): the proxy holder sees the owner's transfer
    // but may not cancel it, and cancels the one it initiated.
    const cancel = (who: Person, id: string) =>
      who.client.call("treasuryoperationsservice.cancel_transfer", { transfer_id: id });
    await refusedNoWrite(t, () => cancel(agent, own.sid), -32002, "TreasuryOperationsError", "Forbidden");
    expect(await ok(cancel(owner, own.sid))).toMatchObject({ status: "cancelled" });
    const agents = await ok(send(agent, from, to, 7));
    expect(await ok(cancel(agent, agents.sid))).toMatchObject({ status: "cancelled" });
    expect(await balanceOf(t, from.sid)).toEqual({ balance: 12, pending_out: 0 });
  });
});

describe("list_transfers", () => {
  test("transfers from or to the account, newest first, optionally by status; strangers get NotFound", async () => {
    const { from, to } = await pair(100, 50);
    const first = await ok(send(dirA, from, to, 10));
    t.clock.advance(1);
    const second = await ok(send(dirA, from, to, 60));
    const all = await member.client.callOk("treasuryoperationsservice.list_transfers", { account_id: to.sid });
    expect(all.items.map((i) => i.sid)).toEqual([second.sid, first.sid]);
    const pending = await member.client.callOk("treasuryoperationsservice.list_transfers", {
      account_id: from.sid,
      status: "pending",
    });
    expect(pending.items.map((i) => i.sid)).toEqual([second.sid]);
    const r = await outsider.client.call("treasuryoperationsservice.list_transfers", { account_id: from.sid });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });
});
