import { beforeEach, describe, expect, test } from "vitest";
import { startAutoTopUp } from "../../src/services/credit-service/auto-topup.ts";
import { aiDebit } from "../credit/support.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { balanceOf, paymentRow, postVerdict, sweep, verdict } from "./support.ts";

let t: TestApp;
let ada: Client;
beforeEach(async () => {
  t = await startTestApp({ paymentSweepIntervalS: 0 });
  ada = await t.register("ada@example.org");
});

/** A confirmed card top-up: funds the wallet and saves the card. */
async function cardTopUp(amount: number) {
  const r = await ada.callOk("creditservice.initiate_topup", { amount, provider: "cardpsp" });
  await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", amount, { payment_method_id: "pm_ada" }));
}

const spend = (amount: number, ref = "k1") =>
  ada.callOk("creditservice.deduct", { amount, description: "use", reference_type: "kyc", reference_id: ref });

const autoPayments = () =>
  sql<{ sid: string; status: string; external_id: string; amount: string }>(
    t,
    `select sid, status, external_id, amount::text from payment where auto_topup order by created_at`,
  );

describe("setup_auto_topup / disable_auto_topup", () => {
  test("needs a saved card (InvalidState), nothing written", async () => {
    const r = await ada.call("creditservice.setup_auto_topup", { amount: 20, threshold: 5 });
    expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect(await count(t, "credit_balance", "auto_topup_enabled")).toBe(0);
  });

  test.each([
    [9.99, 5],
    [20.001, 5],
    [20, -1],
    [20, 1.005],
  ])("refuses amount %s threshold %s (InvalidAmount)", async (amount, threshold) => {
    await cardTopUp(10);
    const r = await ada.call("creditservice.setup_auto_topup", { amount, threshold });
    expect(errorOf(r)).toMatchObject({ data: { variant: "InvalidAmount" } });
    expect(await count(t, "credit_balance", "auto_topup_enabled")).toBe(0);
  });

  test("turns on with the figures, again is the same, off keeps the figures", async () => {
    await cardTopUp(10);
    const on = await ada.callOk("creditservice.setup_auto_topup", { amount: 20, threshold: 5 });
    expect(on).toMatchObject({
      auto_topup_enabled: true,
      auto_topup_amount: 20,
      auto_topup_threshold: 5,
      has_payment_method: true,
      balance: 10,
    });
    expect(await ada.callOk("creditservice.setup_auto_topup", { amount: 20, threshold: 5 })).toEqual(on);
    const off = await ada.callOk("creditservice.disable_auto_topup", {});
    expect(off).toMatchObject({ auto_topup_enabled: false, auto_topup_amount: 20, auto_topup_threshold: 5 });
    expect(await ada.callOk("creditservice.disable_auto_topup", {})).toEqual(off);
  });
});

describe("the auto top-up trigger", () => {
  test("a debit below the threshold queues one card top-up; none more while it is open; credits on confirmation", async () => {
    await cardTopUp(10);
    await ada.callOk("creditservice.setup_auto_topup", { amount: 20, threshold: 5 });
    await spend(4, "a");
    expect(await autoPayments()).toHaveLength(0);
    await spend(2, "b");
    let queued = await autoPayments();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ status: "pending", external_id: "", amount: "20.00" });
    await spend(1, "c");
    expect(await autoPayments()).toHaveLength(1);
    // Charged after the debit committed, by the sweep.
    expect((await sweep(t)).charged).toBe(1);
    queued = await autoPayments();
    const orderId = queued[0]?.external_id ?? "";
    expect(orderId).toMatch(/^sbx-card-/);
    expect((await sweep(t)).charged).toBe(0);
    expect(await balanceOf(t, ada.userId)).toBe(3);
    await postVerdict(t, verdict(orderId, "succeeded", 20));
    expect(await balanceOf(t, ada.userId)).toBe(23);
    expect(await count(t, "credit_transaction", "tx_type = 'top_up'")).toBe(2);
    // Closed: the next debit below the threshold queues a new one.
    await spend(20, "d");
    expect(await autoPayments()).toHaveLength(2);
  });

  test("debit_ai_query below the threshold queues one too; a disabled wallet queues none", async () => {
    await cardTopUp(10);
    await ada.callOk("creditservice.setup_auto_topup", { amount: 15, threshold: 5 });
    await ada.callOk("creditservice.disable_auto_topup", {});
    await spend(6, "a");
    expect(await autoPayments()).toHaveLength(0);
    await ada.callOk("creditservice.setup_auto_topup", { amount: 15, threshold: 5 });
    const ai = await aiDebit(ada, { user_id: ada.userId, amount: 1, description: "ai", external_call_id: "call-1" });
    expect("result" in ai).toBe(true);
    expect(await autoPayments()).toHaveLength(1);
  });

  test("a refused charge fails the payment; a later debit queues a new one", async () => {
    await cardTopUp(10);
    await ada.callOk("creditservice.setup_auto_topup", { amount: 10.92, threshold: 5 });
    await spend(6, "a");
    await sweep(t);
    const [failed] = await autoPayments();
    expect(failed?.status).toBe("failed");
    await spend(1, "b");
    expect(await autoPayments()).toHaveLength(2);
  });
});

describe("startAutoTopUp (for the renewal sweep)", () => {
  test("answers disabled, not_needed, started, pending", async () => {
    const em = () => t.app.runtime.orm.em.fork();
    const now = t.clock.now();
    expect(await startAutoTopUp(em(), t.config, ada.userId, now)).toBe("disabled");
    await cardTopUp(10);
    await ada.callOk("creditservice.setup_auto_topup", { amount: 20, threshold: 5 });
    expect(await startAutoTopUp(em(), t.config, ada.userId, now)).toBe("not_needed");
    expect(await startAutoTopUp(em(), t.config, ada.userId, now, 1500)).toBe("started");
    expect(await startAutoTopUp(em(), t.config, ada.userId, now, 1500)).toBe("pending");
    const [open] = await autoPayments();
    expect(open?.external_id).toMatch(/^sbx-card-/);
    expect((await paymentRow(t, open?.sid ?? "")).auto_topup).toBe(true);
  });
});
