import { beforeEach, describe, expect, test } from "vitest";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { aiDebit, fund, insertPayment, walletOf } from "./support.ts";

let t: TestApp;
let admin: Client;
let ada: Client;
let bob: Client;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
});

const deductParams = (amount: number, reference_id = "kyc-1") => ({
  amount,
  description: "identity check",
  reference_type: "kyc",
  reference_id,
});

const ledgerRows = (userId: string) => count(t, "credit_transaction", "user_id = ?", [userId]);

describe("get_balance", () => {
  test("creates one zero wallet on first read and reads the same one after", async () => {
    expect(await count(t, "credit_balance", "user_id = ?", [ada.userId])).toBe(0);
    const first = await ada.callOk("creditservice.get_balance", {});
    expect(first).toMatchObject({
      user_id: ada.userId,
      balance: 0,
      currency: "USD",
      lifetime_earned: 0,
      lifetime_spent: 0,
      last_top_up_at: null,
      auto_topup_enabled: false,
      has_payment_method: false,
    });
    await ada.callOk("creditservice.get_balance", {});
    expect(await count(t, "credit_balance", "user_id = ?", [ada.userId])).toBe(1);
  });

  test("another user's wallet is refused", async () => {
    const r = await ada.call("creditservice.get_balance", { user_id: bob.userId });
    expect(errorOf(r).code).toBe(-32002);
    expect(await count(t, "credit_balance")).toBe(0);
  });
});

describe("deduct", () => {
  test("debits the caller's wallet, writes a deduction row with balance_after, keeps lifetime figures", async () => {
    await fund(admin, ada.userId, 10);
    const row = await ada.callOk("creditservice.deduct", deductParams(2.5));
    expect(row).toMatchObject({
      user_id: ada.userId,
      tx_type: "deduction",
      amount: 2.5,
      balance_after: 7.5,
      reference_type: "kyc",
      reference_id: "kyc-1",
      external_call_id: null,
      status: "completed",
    });
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 7.5, earned: 10, spent: 2.5 });
    const balance = await ada.callOk("creditservice.get_balance", {});
    expect(balance).toMatchObject({ balance: 7.5, lifetime_earned: 10, lifetime_spent: 2.5 });
  });

  test("exact cents: three debits of 0.10 from 1.00 leave exactly 0.70", async () => {
    await fund(admin, ada.userId, 1);
    for (let i = 0; i < 3; i++) await ada.callOk("creditservice.deduct", deductParams(0.1, `r${i}`));
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 0.7, earned: 1, spent: 0.3 });
  });

  test("the whole balance can be spent, one cent more cannot: InsufficientFunds, nothing written", async () => {
    await fund(admin, ada.userId, 5);
    const short = await ada.call("creditservice.deduct", deductParams(5.01));
    expect(errorOf(short)).toMatchObject({
      code: -32006,
      data: { type: "CreditError", variant: "InsufficientFunds", balance: 5 },
    });
    expect(await ledgerRows(ada.userId)).toBe(1);
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 5, earned: 5, spent: 0 });
    const all = await ada.callOk("creditservice.deduct", deductParams(5));
    expect(all.balance_after).toBe(0);
    const more = await ada.call("creditservice.deduct", deductParams(0.01));
    expect(errorOf(more).data?.variant).toBe("InsufficientFunds");
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 0, earned: 5, spent: 5 });
  });

  test("a user with no wallet has nothing to spend", async () => {
    const r = await ada.call("creditservice.deduct", deductParams(1));
    expect(errorOf(r).data?.variant).toBe("InsufficientFunds");
    expect(await count(t, "credit_transaction")).toBe(0);
  });

  test.each([0, -1, 1.005, 0.001])("amount %s is refused (InvalidAmount), nothing written", async (amount) => {
    await fund(admin, ada.userId, 10);
    const r = await ada.call("creditservice.deduct", deductParams(amount));
    expect(errorOf(r)).toMatchObject({ code: -32006, data: { type: "CreditError", variant: "InvalidAmount" } });
    expect(await ledgerRows(ada.userId)).toBe(1);
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 10, earned: 10, spent: 0 });
  });

  test("an unknown reference_type is refused (InvalidInput)", async () => {
    await fund(admin, ada.userId, 10);
    const r = await ada.call("creditservice.deduct", { ...deductParams(1), reference_type: "lottery" });
    expect(errorOf(r)).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 10, earned: 10, spent: 0 });
  });

  test("debiting another user's wallet is refused and moves nothing", async () => {
    await fund(admin, bob.userId, 10);
    const r = await ada.call("creditservice.deduct", { ...deductParams(1), user_id: bob.userId });
    expect(errorOf(r).code).toBe(-32002);
    expect(await walletOf(t, bob.userId)).toEqual({ balance: 10, earned: 10, spent: 0 });
  });
});

describe("add_bonus", () => {
  test("an administrator grants a bonus: bonus row, AdminAction and grant_bonus audit on the wallet", async () => {
    const row = await fund(admin, ada.userId, 12.34);
    expect(row).toMatchObject({ tx_type: "bonus", amount: 12.34, balance_after: 12.34, reference_type: "admin" });
    expect(await count(t, "admin_action", "action = 'grant_bonus' and target_id = ?", [ada.userId])).toBe(1);
    const audit = await sql(t, "select * from user_audit_log where action = 'grant_bonus'");
    expect(audit).toMatchObject([{ target_type: "wallet", target_ref: ada.userId, allowed: true }]);
  });

  test("a plain user granting a bonus is refused, audited as denied, nothing credited", async () => {
    const r = await ada.call("creditservice.add_bonus", { user_id: ada.userId, amount: 100, description: "me" });
    expect(errorOf(r).code).toBe(-32002);
    expect(await count(t, "credit_transaction")).toBe(0);
    expect(await count(t, "user_audit_log", "action = 'grant_bonus' and allowed = false")).toBe(1);
  });

  test("an unknown user is NotFound and a bad amount InvalidAmount", async () => {
    const unknown = await admin.call("creditservice.add_bonus", { user_id: "nobody", amount: 1, description: "x" });
    expect(errorOf(unknown)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    const bad = await admin.call("creditservice.add_bonus", { user_id: ada.userId, amount: 0, description: "x" });
    expect(errorOf(bad).data?.variant).toBe("InvalidAmount");
    expect(await count(t, "credit_transaction")).toBe(0);
  });
});

describe("refund", () => {
  const refundParams = (amount: number, reference_id = "kyc-1") => ({
    user_id: ada.userId,
    amount,
    description: "session failed",
    reference_type: "kyc",
    reference_id,
  });

  test("refunds up to what was deducted for the reference, no further", async () => {
    await fund(admin, ada.userId, 10);
    await ada.callOk("creditservice.deduct", deductParams(4));
    const first = await admin.callOk("creditservice.refund", refundParams(3));
    expect(first).toMatchObject({ tx_type: "refund", amount: 3, balance_after: 9, reference_id: "kyc-1" });
    const over = await admin.call("creditservice.refund", refundParams(1.01));
    expect(errorOf(over)).toMatchObject({ code: -32006, data: { variant: "InvalidAmount" } });
    await admin.callOk("creditservice.refund", refundParams(1));
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 10, earned: 14, spent: 4 });
  });

  test("a reference with no deduction is NotFound", async () => {
    await fund(admin, ada.userId, 10);
    const r = await admin.call("creditservice.refund", refundParams(1, "never"));
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect(await ledgerRows(ada.userId)).toBe(1);
  });

  test("a plain user refunding is refused, nothing credited", async () => {
    await fund(admin, ada.userId, 10);
    await ada.callOk("creditservice.deduct", deductParams(4));
    const r = await ada.call("creditservice.refund", refundParams(4));
    expect(errorOf(r).code).toBe(-32002);
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 6, earned: 10, spent: 4 });
  });
});

describe("top_up", () => {
  test("credits a confirmed payment once; a second top-up of it is AlreadyUsed", async () => {
    const paymentId = await insertPayment(t, ada.userId, { amount: 25 });
    const row = await admin.callOk("creditservice.top_up", { user_id: ada.userId, amount: 25, payment_id: paymentId });
    expect(row).toMatchObject({ tx_type: "top_up", amount: 25, balance_after: 25, reference_type: "payment" });
    expect(row.reference_id).toBe(paymentId);
    const again = await admin.call("creditservice.top_up", { user_id: ada.userId, amount: 25, payment_id: paymentId });
    expect(errorOf(again)).toMatchObject({ code: -32005, data: { variant: "AlreadyUsed" } });
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 25, earned: 25, spent: 0 });
    const balance = await ada.callOk("creditservice.get_balance", {});
    expect(balance.last_top_up_at).toBe(t.clock.now().toISOString());
  });

  test("refuses a payment that is pending, another user's, not a top-up, of another amount, or unknown", async () => {
    const pending = await insertPayment(t, ada.userId, { status: "pending" });
    const foreign = await insertPayment(t, bob.userId);
    const invoice = await insertPayment(t, ada.userId, { payment_purpose: "invoice_payment" });
    const ok = await insertPayment(t, ada.userId, { amount: 25 });
    const attempt = (payment_id: string, amount = 25) =>
      admin.call("creditservice.top_up", { user_id: ada.userId, amount, payment_id });
    expect(errorOf(await attempt(pending))).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect(errorOf(await attempt(foreign))).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    expect(errorOf(await attempt(invoice)).data?.variant).toBe("InvalidInput");
    expect(errorOf(await attempt(ok, 24.99))).toMatchObject({ code: -32006, data: { variant: "InvalidAmount" } });
    expect(errorOf(await attempt("no-such-payment"))).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect(await count(t, "credit_transaction")).toBe(0);
  });

  test("a plain user topping up, even from their own confirmed payment, is refused", async () => {
    const paymentId = await insertPayment(t, ada.userId);
    const r = await ada.call("creditservice.top_up", { user_id: ada.userId, amount: 25, payment_id: paymentId });
    expect(errorOf(r).code).toBe(-32002);
    expect(await count(t, "credit_transaction")).toBe(0);
  });
});

describe("list_transactions", () => {
  test("pages the caller's ledger newest first; 0 means 20", async () => {
    await fund(admin, ada.userId, 100);
    for (let i = 0; i < 24; i++) {
      t.clock.advance(1);
      await ada.callOk("creditservice.deduct", deductParams(1, `r${i}`));
    }
    await fund(admin, bob.userId, 1);
    const first = await ada.callOk("creditservice.list_transactions", { page: 1, page_size: 0 });
    expect(first).toMatchObject({ total: 25, page: 1, page_size: 20 });
    expect(first.items).toHaveLength(20);
    expect(first.items[0]).toMatchObject({ reference_id: "r23", balance_after: 76 });
    const second = await ada.callOk("creditservice.list_transactions", { page: 2, page_size: 20 });
    expect(second.items.map((r) => r.tx_type)).toEqual(["deduction", "deduction", "deduction", "deduction", "bonus"]);
    const last = await ada.callOk("creditservice.list_transactions", { page: 1, page_size: 100 });
    expect(last.items).toHaveLength(25);
  });

  test.each([
    [0, 20],
    [1, 101],
    [1, -1],
  ])("page %s with page_size %s is InvalidInput", async (page, page_size) => {
    const r = await ada.call("creditservice.list_transactions", { page, page_size });
    expect(errorOf(r)).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
  });

  test("another user's ledger is refused", async () => {
    const r = await ada.call("creditservice.list_transactions", { user_id: bob.userId, page: 1, page_size: 20 });
    expect(errorOf(r).code).toBe(-32002);
  });
});

describe("debit_ai_query", () => {
  const ai = (external_call_id: string, amount = 0.25) => ({
    user_id: ada.userId,
    amount,
    external_call_id,
    description: "assistant query",
  });

  test("is billed in the billed user's own session only: another user, an administrator or an API key is refused", async () => {
    await fund(admin, ada.userId, 10);
    // Another user naming ada, and an administrator's session naming her: the caller binding refuses (-32002).
    for (const client of [bob, admin]) {
      const r = await client.call("creditservice.debit_ai_query", ai("call-1"));
      expect(errorOf(r)).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
    }
    // Her own API key: the method is for a signed-in session (x-auth session), never a key.
    const key = await ada.callOk("apikeyservice.generate_personal", { name: "script", password: PASSWORD });
    const byKey = await t.rpc("creditservice.debit_ai_query", ai("call-1"), { "x-api-key": key.api_key });
    expect(byKey.error).toMatchObject({ code: -32002 });
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 10, earned: 10, spent: 0 });
    expect(await count(t, "credit_transaction", "external_call_id = 'call-1'")).toBe(0);
    // Omitting user_id bills the caller.
    const { user_id: _omitted, ...rest } = ai("call-1");
    const own = await ada.call("creditservice.debit_ai_query", rest);
    expect(own).toMatchObject({ result: { tx_type: "deduction", amount: 0.25, balance_after: 9.75 } });
  });

  test("debits once per external_call_id and answers the first row on a repeat; one ai_query_debit audit row", async () => {
    await fund(admin, ada.userId, 10);
    const first = await aiDebit(ada, ai("call-1"));
    if (!("result" in first)) throw new Error(JSON.stringify(first));
    expect(first.result).toMatchObject({
      tx_type: "deduction",
      amount: 0.25,
      balance_after: 9.75,
      reference_type: "ai_call",
      reference_id: "call-1",
      external_call_id: "call-1",
    });
    const repeat = await aiDebit(ada, ai("call-1"));
    expect(repeat).toEqual({ result: first.result });
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 9.75, earned: 10, spent: 0.25 });
    // One audit row per billed call: the repeat changed nothing and writes none (issue 29 item 17).
    const audit = await sql(t, "select * from user_audit_log where action = 'ai_query_debit'");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target_type: "ai_call", target_ref: "call-1", allowed: true });
  });

  test("a repeat naming another amount or user is AlreadyExists and debits nothing", async () => {
    await fund(admin, ada.userId, 10);
    await fund(admin, bob.userId, 10);
    await aiDebit(ada, ai("call-1"));
    const otherAmount = await aiDebit(ada, ai("call-1", 0.5));
    expect("error" in otherAmount && otherAmount.error).toMatchObject({
      code: -32005,
      data: { variant: "AlreadyExists" },
    });
    const otherUser = await aiDebit(bob, { ...ai("call-1"), user_id: bob.userId });
    expect("error" in otherUser && otherUser.error).toMatchObject({ data: { variant: "AlreadyExists" } });
    expect(await walletOf(t, bob.userId)).toEqual({ balance: 10, earned: 10, spent: 0 });
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 9.75, earned: 10, spent: 0.25 });
  });

  test("a short balance is InsufficientFunds and leaves no row, so the id can be billed later", async () => {
    await fund(admin, ada.userId, 0.2);
    const short = await aiDebit(ada, ai("call-1"));
    expect("error" in short && short.error).toMatchObject({ code: -32006, data: { variant: "InsufficientFunds" } });
    expect(await count(t, "credit_transaction", "external_call_id = 'call-1'")).toBe(0);
    await fund(admin, ada.userId, 1);
    const later = await aiDebit(ada, ai("call-1"));
    expect("result" in later && later.result.balance_after).toBe(0.95);
  });

  test("bad amounts and other users' ids are refused", async () => {
    const bad = await aiDebit(ada, ai("call-1", -0.25));
    expect("error" in bad && bad.error).toMatchObject({ data: { variant: "InvalidAmount" } });
    const unknown = await aiDebit(ada, { ...ai("call-2"), user_id: "nobody" });
    expect("error" in unknown && unknown.error).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
    expect(await count(t, "credit_transaction")).toBe(0);
  });
});

describe("audit targets", () => {
  test("a wallet's and an AI call's audit rows are visible to their owner, NotFound to others", async () => {
    await fund(admin, ada.userId, 1);
    await aiDebit(ada, { user_id: ada.userId, amount: 0.5, external_call_id: "call-9", description: "q" });
    for (const target_ref of [ada.userId, "call-9"]) {
      const mine = await ada.rpc("userauditlogservice.list_for_target", { target_ref, limit: 0 });
      expect(mine.result.items).toHaveLength(1);
      const theirs = await bob.rpc("userauditlogservice.list_for_target", { target_ref, limit: 0 });
      expect(theirs.error).toMatchObject({ code: -32003 });
    }
  });
});
