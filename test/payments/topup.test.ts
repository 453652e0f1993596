import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf } from "../support/helpers.ts";
import { balanceOf, paymentRow, postVerdict, sweep, verdict } from "./support.ts";

let t: TestApp;
let ada: Client;
beforeEach(async () => {
  t = await startTestApp({ paymentSweepIntervalS: 0 });
  ada = await t.register("ada@example.org");
});

const topUp = (amount: number, provider = "mobilepay") =>
  ada.call("creditservice.initiate_topup", { amount, provider });

describe("initiate_topup and the provider webhook", () => {
  test("starts a pending credit_topup payment and credits nothing until the provider confirms", async () => {
    const r = await ada.callOk("creditservice.initiate_topup", { amount: 25, provider: "mobilepay" });
    expect(r).toMatchObject({ status: "pending", amount: 25, currency: "USD", payment_purpose: "credit_topup" });
    expect(r.mobilepay_order_id).toMatch(/^sbx-mp-/);
    expect(await count(t, "credit_transaction")).toBe(0);
    const ack = await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", 25));
    expect(ack.result).toMatchObject({ received: true, duplicate: false, matched: true, status: "confirmed" });
    expect(await balanceOf(t, ada.userId)).toBe(25);
    expect(await count(t, "credit_transaction", "tx_type = 'top_up' and reference_id = ?", [r.payment_id])).toBe(1);
    expect((await paymentRow(t, r.payment_id)).status).toBe("confirmed");
  });

  test("the same event twice is a duplicate; another event confirming again credits nothing more", async () => {
    const r = await ada.callOk("creditservice.initiate_topup", { amount: 10, provider: "mobilepay" });
    const event = verdict(r.mobilepay_order_id, "succeeded", 10);
    await postVerdict(t, event);
    const again = await postVerdict(t, event);
    expect(again.result).toMatchObject({ duplicate: true, status: "confirmed" });
    const second = await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", 10));
    expect(second.result).toMatchObject({ duplicate: false, status: "confirmed" });
    expect(await balanceOf(t, ada.userId)).toBe(10);
    expect(await count(t, "credit_transaction")).toBe(1);
  });

  test("a replayed event id with another body is refused and changes nothing", async () => {
    const r = await ada.callOk("creditservice.initiate_topup", { amount: 10, provider: "mobilepay" });
    const first = verdict(r.mobilepay_order_id, "pending", 10);
    await postVerdict(t, first);
    const replay = await postVerdict(t, { ...first, status: "succeeded" });
    expect(errorOf(replay)).toMatchObject({ code: -32005, data: { variant: "Replayed" } });
    expect((await paymentRow(t, r.payment_id)).status).toBe("pending");
    expect(await count(t, "credit_transaction")).toBe(0);
  });

  test("a bad or stale signature is refused and nothing is written", async () => {
    const r = await ada.callOk("creditservice.initiate_topup", { amount: 10, provider: "mobilepay" });
    const bad = await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", 10), "not-the-secret");
    expect(errorOf(bad)).toMatchObject({ code: -32001, data: { variant: "InvalidWebhookSignature" } });
    const stale = new Date(t.clock.now().getTime() - 6 * 60_000);
    const old = await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", 10), t.config.webhookSecret, stale);
    expect(errorOf(old)).toMatchObject({ code: -32001 });
    expect((await paymentRow(t, r.payment_id)).status).toBe("pending");
    expect(await count(t, "webhook_event")).toBe(0);
    expect(await count(t, "credit_transaction")).toBe(0);
  });

  test("an amount or currency that differs from the payment is refused", async () => {
    const r = await ada.callOk("creditservice.initiate_topup", { amount: 10, provider: "mobilepay" });
    const wrong = await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", 10.01));
    expect(errorOf(wrong)).toMatchObject({ data: { variant: "InvalidInput" } });
    const eur = await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", 10, { currency: "EUR" }));
    expect(errorOf(eur)).toMatchObject({ data: { variant: "InvalidInput" } });
    expect((await paymentRow(t, r.payment_id)).status).toBe("pending");
    expect(await count(t, "webhook_event")).toBe(0);
  });

  test("failed and expired verdicts close the payment without credit; a later success changes nothing", async () => {
    const a = await ada.callOk("creditservice.initiate_topup", { amount: 10, provider: "mobilepay" });
    const b = await ada.callOk("creditservice.initiate_topup", { amount: 11, provider: "cardpsp" });
    expect(b.checkout_url).toMatch(/^https:\/\/sandbox\.cardpsp/);
    expect((await postVerdict(t, verdict(a.mobilepay_order_id, "failed", 10))).result).toMatchObject({
      status: "failed",
    });
    expect((await postVerdict(t, verdict(b.mobilepay_order_id, "expired", 11))).result).toMatchObject({
      status: "expired",
    });
    const late = await postVerdict(t, verdict(a.mobilepay_order_id, "succeeded", 10));
    expect(late.result).toMatchObject({ status: "failed" });
    expect(await count(t, "credit_transaction")).toBe(0);
  });

  test("an unknown order is acknowledged unmatched", async () => {
    const r = await postVerdict(t, verdict("sbx-mp-unknown", "succeeded", 10));
    expect(r.result).toMatchObject({ matched: false, status: null, duplicate: false });
  });

  test("a confirmed card payment saves the card on the wallet", async () => {
    const r = await ada.callOk("creditservice.initiate_topup", { amount: 20, provider: "cardpsp" });
    await postVerdict(
      t,
      verdict(r.mobilepay_order_id, "succeeded", 20, { payment_method_id: "pm_1", customer_id: "cus_1" }),
    );
    const wallet = await ada.callOk("creditservice.get_balance", {});
    expect(wallet).toMatchObject({ balance: 20, has_payment_method: true });
  });
});

describe("bad input to initiate_topup: an error, nothing written", () => {
  test.each([
    [0, "InvalidAmount"],
    [-5, "InvalidAmount"],
    [10.005, "InvalidAmount"],
    [4.99, "InvalidAmount"],
    [5000.01, "InvalidAmount"],
  ])("amount %s", async (amount, variant) => {
    expect(errorOf(await topUp(amount))).toMatchObject({ data: { variant } });
    expect(await count(t, "payment")).toBe(0);
  });

  test("unknown provider", async () => {
    expect(errorOf(await topUp(10, "paypal"))).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    expect(await count(t, "payment")).toBe(0);
  });

  test("the sandbox provider unavailable (.91) or rejecting (.92)", async () => {
    expect(errorOf(await topUp(10.91))).toMatchObject({ code: -32009, data: { variant: "ProviderUnavailable" } });
    expect(errorOf(await topUp(10.92, "cardpsp"))).toMatchObject({ data: { variant: "ProviderRejected" } });
    expect(await count(t, "payment")).toBe(0);
  });

  test("another user's wallet", async () => {
    const bob = await t.register("bob@example.org");
    const r = await ada.call("creditservice.initiate_topup", {
      user_id: bob.userId,
      amount: 10,
      provider: "mobilepay",
    });
    expect(errorOf(r).code).toBe(-32002);
    expect(await count(t, "payment")).toBe(0);
  });
});

describe("expiry sweep", () => {
  test("open payments past expires_at become expired; a later success credits nothing", async () => {
    const r = await ada.callOk("creditservice.initiate_topup", { amount: 10, provider: "mobilepay" });
    t.clock.advance(29 * 60);
    expect((await sweep(t)).expired).toBe(0);
    t.clock.advance(60);
    expect((await sweep(t)).expired).toBe(1);
    expect((await paymentRow(t, r.payment_id)).status).toBe("expired");
    expect((await sweep(t)).expired).toBe(0);
    await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", 10));
    expect(await balanceOf(t, ada.userId)).toBe(0);
  });
});
