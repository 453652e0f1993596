import { beforeEach, describe, expect, test } from "vitest";
import { companyPricing } from "../../src/domain/company-pricing.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import {
  insertCompany,
  insertDirector,
  insertInvoice,
  insertResident,
  postReceiving,
  postVerdict,
  verdict,
} from "./support.ts";

let t: TestApp;
let ada: Client;
let bob: Client;
let adaResident: string;
beforeEach(async () => {
  t = await startTestApp({ paymentSweepIntervalS: 0 });
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
  adaResident = await insertResident(t, ada.userId);
});

const receiving = (table: string, key: string, id: string) =>
  sql<{
    cardpsp_connected_account_id: string | null;
    mobilepay_merchant_id: string | null;
    payment_receiving_enabled: boolean;
  }>(
    t,
    `select cardpsp_connected_account_id, mobilepay_merchant_id, payment_receiving_enabled from ${table} where ${key} = ?`,
    [id],
  ).then((r) => r[0]);

describe("connect_payment_receiving and the provider's verification", () => {
  test("receiving is enabled only once the provider verified the account", async () => {
    const r = await ada.callOk("paymentservice.connect_payment_receiving", {
      entity_type: "resident",
      entity_id: adaResident,
      provider: "cardpsp",
    });
    expect(r).toMatchObject({
      provider: "cardpsp",
      payment_receiving_enabled: false,
      cardpsp_connected_account_id: r.account_id,
    });
    expect(r.onboarding_url).toContain(r.account_id);
    expect(await receiving("digital_resident", "resident_id", adaResident)).toMatchObject({
      cardpsp_connected_account_id: r.account_id,
      payment_receiving_enabled: false,
    });
    const pending = await postReceiving(t, { provider: "cardpsp", account_id: r.account_id, status: "pending" });
    expect(pending.result).toMatchObject({ matched: true, status: null });
    expect((await receiving("digital_resident", "resident_id", adaResident))?.payment_receiving_enabled).toBe(false);
    const wrongProvider = await postReceiving(t, {
      provider: "mobilepay",
      account_id: r.account_id,
      status: "verified",
    });
    expect(wrongProvider.result).toMatchObject({ matched: false });
    expect((await receiving("digital_resident", "resident_id", adaResident))?.payment_receiving_enabled).toBe(false);
    const ok = await postReceiving(t, { provider: "cardpsp", account_id: r.account_id, status: "verified" });
    expect(ok.result).toMatchObject({ matched: true, status: "verified" });
    expect((await receiving("digital_resident", "resident_id", adaResident))?.payment_receiving_enabled).toBe(true);
  });

  test("a repeated receiving event is a duplicate; the same id with another body is Replayed", async () => {
    const r = await ada.callOk("paymentservice.connect_payment_receiving", {
      entity_type: "resident",
      entity_id: adaResident,
      provider: "cardpsp",
    });
    const { sandboxReceivingCallback } = await import("../../src/integrations/payments/sandbox-callbacks.ts");
    const event = {
      event_id: "rcv-fixed",
      provider: "cardpsp" as const,
      account_id: r.account_id,
      status: "pending" as const,
      occurred_at: "2026-11-23T10:00:00.000Z",
    };
    const first = sandboxReceivingCallback(t.config.webhookSecret, event, t.clock.now());
    await t.post("/rpc", first.body, first.headers);
    const again = await t.post("/rpc", first.body, first.headers);
    expect(again.result).toMatchObject({ duplicate: true });
    const other = sandboxReceivingCallback(t.config.webhookSecret, { ...event, status: "verified" }, t.clock.now());
    expect(errorOf(await t.post("/rpc", other.body, other.headers))).toMatchObject({ data: { variant: "Replayed" } });
    expect((await receiving("digital_resident", "resident_id", adaResident))?.payment_receiving_enabled).toBe(false);
  });

  test("a rejected account is removed and receiving stays off", async () => {
    const r = await ada.callOk("paymentservice.connect_payment_receiving", {
      entity_type: "resident",
      entity_id: adaResident,
      provider: "mobilepay",
    });
    await postReceiving(t, { provider: "mobilepay", account_id: r.account_id, status: "rejected" });
    expect(await receiving("digital_resident", "resident_id", adaResident)).toMatchObject({
      mobilepay_merchant_id: null,
      payment_receiving_enabled: false,
    });
  });

  test("a company: its director may connect, another user gets NotFound; a bad signature changes nothing", async () => {
    const company = await insertCompany(t, ada.userId);
    const bobResident = await insertResident(t, bob.userId);
    const carol = await t.register("carol@example.org");
    expect(
      errorOf(
        await carol.call("paymentservice.connect_payment_receiving", {
          entity_type: "company",
          entity_id: company,
          provider: "cardpsp",
        }),
      ),
    ).toMatchObject({ data: { variant: "NotFound" } });
    expect(
      errorOf(
        await bob.call("paymentservice.connect_payment_receiving", {
          entity_type: "company",
          entity_id: company,
          provider: "cardpsp",
        }),
      ),
    ).toMatchObject({ data: { variant: "NotFound" } });
    expect(
      errorOf(
        await bob.call("paymentservice.connect_payment_receiving", {
          entity_type: "resident",
          entity_id: adaResident,
          provider: "cardpsp",
        }),
      ),
    ).toMatchObject({ data: { variant: "NotFound" } });
    expect(
      errorOf(
        await ada.call("paymentservice.connect_payment_receiving", {
          entity_type: "resident",
          entity_id: adaResident,
          provider: "paypal",
        }),
      ),
    ).toMatchObject({ data: { variant: "InvalidInput" } });
    await insertDirector(t, company, bobResident);
    const r = await bob.callOk("paymentservice.connect_payment_receiving", {
      entity_type: "company",
      entity_id: company,
      provider: "cardpsp",
    });
    const { body, headers } = await import("../../src/integrations/payments/sandbox-callbacks.ts").then((m) =>
      m.sandboxReceivingCallback(
        "wrong-secret",
        {
          event_id: "x1",
          provider: "cardpsp",
          account_id: r.account_id,
          status: "verified",
          occurred_at: "2026-11-23T10:00:00.000Z",
        },
        t.clock.now(),
      ),
    );
    expect(errorOf(await t.post("/rpc", body, headers)).code).toBe(-32001);
    expect((await receiving("zone_company", "company_id", company))?.payment_receiving_enabled).toBe(false);
    await postReceiving(t, { provider: "cardpsp", account_id: r.account_id, status: "verified" });
    expect((await receiving("zone_company", "company_id", company))?.payment_receiving_enabled).toBe(true);
  });
});

describe("initiate_invoice_payment", () => {
  test("refused until the sender receives through the provider; then paid by the confirmed payment", async () => {
    const invoice = await insertInvoice(t, {
      sender_user_id: ada.userId,
      sender_entity_id: adaResident,
      recipient_user_id: bob.userId,
    });
    const before = await bob.call("paymentservice.initiate_invoice_payment", {
      invoice_id: invoice,
      provider: "cardpsp",
    });
    expect(errorOf(before)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const acct = await ada.callOk("paymentservice.connect_payment_receiving", {
      entity_type: "resident",
      entity_id: adaResident,
      provider: "cardpsp",
    });
    expect(
      errorOf(await bob.call("paymentservice.initiate_invoice_payment", { invoice_id: invoice, provider: "cardpsp" })),
    ).toMatchObject({ data: { variant: "InvalidState" } });
    await postReceiving(t, { provider: "cardpsp", account_id: acct.account_id, status: "verified" });
    expect(
      errorOf(
        await bob.call("paymentservice.initiate_invoice_payment", { invoice_id: invoice, provider: "mobilepay" }),
      ),
    ).toMatchObject({ data: { variant: "InvalidState" } });
    expect(await count(t, "payment")).toBe(0);
    // Only the recipient may pay it: anyone else does not see it.
    expect(
      errorOf(await ada.call("paymentservice.initiate_invoice_payment", { invoice_id: invoice, provider: "cardpsp" })),
    ).toMatchObject({ data: { variant: "NotFound" } });
    const p = await bob.callOk("paymentservice.initiate_invoice_payment", { invoice_id: invoice, provider: "cardpsp" });
    expect(p).toMatchObject({ status: "pending", amount: 118, currency: "USD", payment_purpose: "invoice_payment" });
    await postVerdict(t, verdict(p.mobilepay_order_id, "succeeded", 118));
    expect(
      await count(
        t,
        "zone_invoice",
        "sid = ? and status = 'paid' and payment_method = 'card' and payment_reference = ?",
        [invoice, p.payment_id],
      ),
    ).toBe(1);
    const paid = await bob.call("paymentservice.initiate_invoice_payment", {
      invoice_id: invoice,
      provider: "cardpsp",
    });
    expect(errorOf(paid)).toMatchObject({ data: { variant: "InvalidState" } });
  });

  test("a draft invoice and an unknown one are refused", async () => {
    const draft = await insertInvoice(t, {
      status: "draft",
      sender_user_id: ada.userId,
      recipient_email: "bob@example.org",
    });
    expect(
      errorOf(await bob.call("paymentservice.initiate_invoice_payment", { invoice_id: draft, provider: "cardpsp" })),
    ).toMatchObject({ data: { variant: "InvalidState" } });
    expect(
      errorOf(await bob.call("paymentservice.initiate_invoice_payment", { invoice_id: "nope", provider: "cardpsp" })),
    ).toMatchObject({ data: { variant: "NotFound" } });
    expect(await count(t, "payment")).toBe(0);
  });
});

describe("initiate_mobilepay", () => {
  test("a resident subscription at the server's price, for the caller's resident only", async () => {
    const r = await ada.callOk("paymentservice.initiate_mobilepay", {
      entity_id: adaResident,
      entity_type: "resident",
      amount: 102,
      currency: "USD",
      description: "Residency",
      payment_purpose: "resident_subscription",
      subscription_plan: "1_year",
    });
    expect(r).toMatchObject({ status: "pending", payment_purpose: "resident_subscription", checkout_url: null });
    expect(r.mobilepay_order_id).toMatch(/^sbx-mp-/);
    const stored = await sql<{ mobilepay_order_id: string }>(
      t,
      `select mobilepay_order_id from payment where sid = ?`,
      [r.payment_id],
    );
    expect(stored[0]?.mobilepay_order_id).toBe(r.mobilepay_order_id);
  });

  test.each([
    [{ amount: 101 }, "InvalidAmount"],
    [{ amount: 0 }, "InvalidAmount"],
    [{ amount: -102 }, "InvalidAmount"],
    [{ amount: 102.001 }, "InvalidAmount"],
    [{ currency: "ABC" }, "InvalidInput"],
    [{ currency: "EUR" }, "InvalidAmount"],
    [{ subscription_plan: "9_years" }, "InvalidInput"],
    [{ payment_purpose: "lottery" }, "InvalidInput"],
    [{ payment_purpose: "invoice_payment" }, "InvalidInput"],
    [{ entity_id: "FZ-2026-RA999999" }, "NotFound"],
  ])("%o -> %s, nothing written", async (params, variant) => {
    const r = await ada.call("paymentservice.initiate_mobilepay", {
      entity_id: adaResident,
      entity_type: "resident",
      amount: 102,
      currency: "USD",
      description: "Residency",
      payment_purpose: "resident_subscription",
      subscription_plan: "1_year",
      ...params,
    });
    expect(errorOf(r)).toMatchObject({ data: { variant } });
    expect(await count(t, "payment")).toBe(0);
  });

  test("a company subscription by its director at the server's price; another amount is refused", async () => {
    const company = await insertCompany(t, bob.userId);
    await insertDirector(t, company, adaResident);
    const price = companyPricing("single_fzc", 1, "one_year", false).subscription_amount;
    const base = {
      entity_id: company,
      entity_type: "company" as const,
      currency: "USD",
      description: "Company",
      payment_purpose: "company_subscription",
      subscription_plan: "one_year",
    };
    expect(errorOf(await ada.call("paymentservice.initiate_mobilepay", { ...base, amount: price + 1 }))).toMatchObject({
      data: { variant: "InvalidAmount" },
    });
    expect(
      errorOf(
        await ada.call("paymentservice.initiate_mobilepay", {
          ...base,
          amount: price,
          entity_type: "resident" as const,
          entity_id: adaResident,
        }),
      ),
    ).toMatchObject({ data: { variant: "InvalidInput" } });
    expect(await count(t, "payment")).toBe(0);
    const r = await ada.callOk("paymentservice.initiate_mobilepay", { ...base, amount: price });
    expect(r).toMatchObject({ status: "pending", amount: price, payment_purpose: "company_subscription" });
  });

  test("a credit top-up through initiate_mobilepay is stored as credit_topup and credits on confirmation", async () => {
    const r = await ada.callOk("paymentservice.initiate_mobilepay", {
      entity_id: adaResident,
      entity_type: "resident",
      amount: 15,
      currency: "USD",
      description: "Credits",
      payment_purpose: "credit_top_up",
    });
    expect(r.payment_purpose).toBe("credit_topup");
    await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", 15));
    expect(await count(t, "credit_transaction", "tx_type = 'top_up' and user_id = ?", [ada.userId])).toBe(1);
  });
});
