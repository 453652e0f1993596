import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import { balanceOf, insertInvoice, insertResident, paymentRow } from "./support.ts";

let t: TestApp;
let admin: Client;
let ada: Client;
beforeEach(async () => {
  t = await startTestApp({ paymentSweepIntervalS: 0 });
  admin = await t.admin();
  ada = await t.register("ada@example.org");
});

/** A bank-transfer payment waiting for an administrator (instructions were issued to the payer). */
async function bankPayment(userId: string, values: Record<string, unknown> = {}): Promise<string> {
  const row = await insertRow(t.app.runtime.orm, "Payment", {
    user_id: userId,
    entity_id: userId,
    entity_type: "resident",
    payment_type: "bank_transfer",
    amount: 40,
    currency: "USD",
    payment_purpose: "credit_topup",
    status: "pending",
    expires_at: new Date("2026-11-30T00:00:00.000Z"),
    ...values,
  });
  return String(row["sid"]);
}

describe("confirm_payment", () => {
  test("an administrator confirms a bank transfer: top-up credited once, audited", async () => {
    const sid = await bankPayment(ada.userId);
    const r = await admin.callOk("paymentservice.confirm_payment", { payment_id: sid, transaction_hash: "BANKREF-1" });
    expect(r).toMatchObject({
      status: "confirmed",
      fulfilled: true,
      payment_purpose: "credit_topup",
      transaction_hash: "BANKREF-1",
    });
    expect(r.credit_transaction_id).not.toBeNull();
    expect(await balanceOf(t, ada.userId)).toBe(40);
    expect(await count(t, "admin_action", "action = 'confirm_payment' and target_id = ?", [sid])).toBe(1);
    const again = await admin.call("paymentservice.confirm_payment", { payment_id: sid });
    expect(errorOf(again)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect(await balanceOf(t, ada.userId)).toBe(40);
  });

  test("both spellings of the top-up purpose credit", async () => {
    const sid = await bankPayment(ada.userId, { payment_purpose: "credit_top_up", amount: 12.5 });
    await admin.callOk("paymentservice.confirm_payment", { payment_id: sid });
    expect(await balanceOf(t, ada.userId)).toBe(12.5);
  });

  test("the payer never confirms: a plain user is refused, an administrator's own payment too", async () => {
    const sid = await bankPayment(ada.userId);
    expect(errorOf(await ada.call("paymentservice.confirm_payment", { payment_id: sid })).code).toBe(-32002);
    const own = await bankPayment(admin.userId);
    const r = await admin.call("paymentservice.confirm_payment", { payment_id: own });
    expect(errorOf(r)).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    expect((await paymentRow(t, sid)).status).toBe("pending");
    expect((await paymentRow(t, own)).status).toBe("pending");
    expect(await count(t, "credit_transaction")).toBe(0);
  });

  test("expired (by date or by the sweep), failed, unknown and a reused transaction hash are refused", async () => {
    const late = await bankPayment(ada.userId, { expires_at: new Date("2026-11-23T09:59:59.000Z") });
    expect(errorOf(await admin.call("paymentservice.confirm_payment", { payment_id: late }))).toMatchObject({
      data: { variant: "Expired" },
    });
    const swept = await bankPayment(ada.userId, { status: "expired" });
    expect(errorOf(await admin.call("paymentservice.confirm_payment", { payment_id: swept }))).toMatchObject({
      data: { variant: "Expired" },
    });
    const failed = await bankPayment(ada.userId, { status: "failed" });
    expect(errorOf(await admin.call("paymentservice.confirm_payment", { payment_id: failed }))).toMatchObject({
      data: { variant: "InvalidState" },
    });
    expect(errorOf(await admin.call("paymentservice.confirm_payment", { payment_id: "nope" }))).toMatchObject({
      data: { variant: "NotFound" },
    });
    const first = await bankPayment(ada.userId);
    const second = await bankPayment(ada.userId);
    await admin.callOk("paymentservice.confirm_payment", { payment_id: first, transaction_hash: "0xabc" });
    const reused = await admin.call("paymentservice.confirm_payment", {
      payment_id: second,
      transaction_hash: "0xabc",
    });
    expect(errorOf(reused)).toMatchObject({ data: { variant: "AlreadyUsed" } });
    expect((await paymentRow(t, second)).status).toBe("pending");
    expect(await balanceOf(t, ada.userId)).toBe(40);
  });

  test("an invoice payment marks the invoice paid once; a company payment stays confirmed unfulfilled", async () => {
    const invoice = await insertInvoice(t, { sender_user_id: admin.userId, recipient_user_id: ada.userId });
    const sid = await bankPayment(ada.userId, { payment_purpose: "invoice_payment", invoice_id: invoice, amount: 118 });
    const r = await admin.callOk("paymentservice.confirm_payment", { payment_id: sid });
    expect(r.fulfilled).toBe(true);
    expect(
      await count(
        t,
        "zone_invoice",
        "sid = ? and status = 'paid' and payment_method = 'bank_transfer' and payment_reference = ? and paid_at is not null",
        [invoice, sid],
      ),
    ).toBe(1);
    const twice = await bankPayment(ada.userId, {
      payment_purpose: "invoice_payment",
      invoice_id: invoice,
      amount: 118,
    });
    expect((await admin.callOk("paymentservice.confirm_payment", { payment_id: twice })).fulfilled).toBe(false);
    const company = await bankPayment(ada.userId, {
      payment_purpose: "company_subscription",
      entity_type: "company",
      entity_id: "FZ-2026-CP999999",
    });
    expect(await admin.callOk("paymentservice.confirm_payment", { payment_id: company })).toMatchObject({
      status: "confirmed",
      fulfilled: false,
    });
    expect(await count(t, "credit_transaction")).toBe(0);
  });
});

describe("initiate_bank_transfer", () => {
  test("issues instructions; the payer cannot confirm; an administrator does, and the purpose applies", async () => {
    const resident = await insertResident(t, ada.userId);
    const r = await ada.callOk("paymentservice.initiate_bank_transfer", {
      entity_type: "resident",
      entity_id: resident,
      amount: 30,
      currency: "USD",
      payment_purpose: "credit_top_up",
    });
    expect(r).toMatchObject({
      status: "pending",
      amount: 30,
      payment_purpose: "credit_topup",
      reference: `FZPAY-${r.payment_id}`,
    });
    expect(Date.parse(r.expires_at) - t.clock.now().getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(errorOf(await ada.call("paymentservice.confirm_payment", { payment_id: r.payment_id })).code).toBe(-32002);
    await admin.callOk("paymentservice.confirm_payment", { payment_id: r.payment_id, transaction_hash: r.reference });
    expect(await balanceOf(t, ada.userId)).toBe(30);
  });

  test.each([
    [{ amount: 0 }, "InvalidAmount"],
    [{ amount: -3 }, "InvalidAmount"],
    [{ amount: 30.123 }, "InvalidAmount"],
    [{ currency: "QQQ" }, "InvalidInput"],
    [{ payment_purpose: "invoice_payment" }, "InvalidInput"],
  ])("%o -> %s, nothing written", async (params, variant) => {
    const resident = await insertResident(t, ada.userId);
    const r = await ada.call("paymentservice.initiate_bank_transfer", {
      entity_type: "resident",
      entity_id: resident,
      amount: 30,
      currency: "USD",
      payment_purpose: "credit_top_up",
      ...params,
    });
    expect(errorOf(r)).toMatchObject({ data: { variant } });
    expect(await count(t, "payment")).toBe(0);
  });
});
