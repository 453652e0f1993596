import { beforeAll, describe, expect, test } from "vitest";
import { ensureFunds, formCompany, journeyCast, postMobileMoneySucceeded } from "../journeys/support.ts";
import type { Client } from "../support/app.ts";

// Company payments (issue 30): one price rule for registration, renewal and the mobile-money purpose prices, and a
// confirmed company payment applied in the confirming transaction; a payment whose purpose cannot apply is refused
// at initiation. Public API only: companies formed through drafts, payments confirmed by the sandbox provider's
// signed webhook.

const cast = journeyCast({
  ada: { first_name: "Ada", last_name: "Founder" },
  dan: { first_name: "Dan", last_name: "Director" },
  dee: { first_name: "Dee", last_name: "Director" },
  dot: { first_name: "Dot", last_name: "Director" },
});

/** A startup FZC: Ada the one shareholder, Dan, Dee and Dot directors only (the reproduction). */
async function startupWithDirectors() {
  const { zone, ada, dan, dee, dot } = cast;
  const directors = [dan, dee, dot].map((resident) => ({ resident, units: 0, role: "director" as const }));
  return formCompany(zone, { resident: ada, units: 1000 }, directors, { company_type: "startup_fzc" });
}

/** The company the tests share (formed once: each formation onboards nothing but costs a dozen calls). */
let companyId: string;
beforeAll(async () => {
  ({ companyId } = await startupWithDirectors());
});

/** The company's subscription end as its founder reads it. */
const endOf = async () =>
  (await cast.ada.client.callOk("companyservice.get", { company_id: companyId })).subscription_end_date;

/** `iso` plus one calendar month (UTC; the test dates never fall on a day the next month lacks). */
const plusMonth = (iso: string | null) => {
  const d = new Date(iso ?? "");
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString();
};

const subscriptionPayment = (client: Client, companyId: string, amount: number, plan: string) =>
  client.call("paymentservice.initiate_mobilepay", {
    entity_id: companyId,
    entity_type: "company",
    amount,
    currency: "USD",
    description: "Company subscription",
    payment_purpose: "company_subscription",
    subscription_plan: plan,
  });

const paymentsOf = async (client: Client, companyId: string) =>
  (await client.callOk("payment.find", { query: JSON.stringify({ entity_id: companyId }) })).items;

const errorOf = (r: { result: unknown } | { error: { code: number; data?: Record<string, unknown> } }) =>
  "error" in r ? r.error : null;

describe("one price rule", () => {
  test("renewal prices the holders registration priced: one shareholder and three directors renew at 90", async () => {
    const { zone, ada } = cast;
    const company = await ada.client.callOk("companyservice.get", { company_id: companyId });
    expect(company).toMatchObject({ monthly_fee_rate: 90, shareholder_fee_rate: 10 });
    expect(company.shareholders).toHaveLength(4);
    await ensureFunds(zone, ada.client, 90);
    const end = await endOf();
    const renewed = await ada.client.callOk("paymentservice.initiate_company_renewal", {
      company_id: companyId,
      plan: "1_month",
    });
    expect(renewed).toMatchObject({ amount_charged: 90, subscription_end_date: plusMonth(end) });
  });

  test("the mobile-money subscription price is the renewal price (90 for a month, either plan spelling)", async () => {
    const { ada } = cast;
    expect(errorOf(await subscriptionPayment(ada.client, companyId, 100, "1_month"))).toMatchObject({
      code: -32006,
      data: { type: "PaymentError", variant: "InvalidAmount", price: 90 },
    });
    const monthly = await subscriptionPayment(ada.client, companyId, 90, "monthly");
    expect(errorOf(monthly)).toBeNull();
    const month = await subscriptionPayment(ada.client, companyId, 90, "1_month");
    expect(errorOf(month)).toBeNull();
  });
});

describe("confirmed company payments apply", () => {
  test("a mobile-money subscription payment confirmed by the webhook extends the subscription, no wallet debit", async () => {
    const { zone, ada } = cast;
    const end = await endOf();
    const balance = (await ada.client.callOk("creditservice.get_balance")).balance;
    const started = await subscriptionPayment(ada.client, companyId, 90, "1_month");
    if ("error" in started) throw new Error(JSON.stringify(started.error));
    const ack = await postMobileMoneySucceeded(zone, started.result.mobilepay_order_id, 90);
    expect(ack).toMatchObject({ matched: true, status: "confirmed" });
    const after = await ada.client.callOk("companyservice.get", { company_id: companyId });
    expect(after).toMatchObject({ status: "active", subscription_end_date: plusMonth(end) });
    const paid = await paymentsOf(ada.client, companyId);
    expect(paid.filter((p) => p.status === "confirmed")).toHaveLength(1);
    expect((await ada.client.callOk("creditservice.get_balance")).balance).toBe(balance);
    const messages = await ada.client.callOk("messageservice.list_company_messages", { company_id: companyId });
    expect(messages.items[0]?.body).toContain("90.00 USD were paid by mobilepay");
  });
});

describe("an administrator's confirmation applies in its transaction", () => {
  test("a bank transfer confirmed renews; one confirmed after the company was suspended keeps its dates", async () => {
    const { zone, ada } = cast;
    const { companyId: id } = await startupWithDirectors();
    const transfer = () =>
      ada.client.callOk("paymentservice.initiate_bank_transfer", {
        entity_id: id,
        entity_type: "company",
        amount: 90,
        currency: "USD",
        payment_purpose: "company_subscription",
        subscription_plan: "1_month",
      });
    const first = await transfer();
    const second = await transfer();
    const end = async () => (await ada.client.callOk("companyservice.get", { company_id: id })).subscription_end_date;
    const renewedEnd = plusMonth(await end());
    const confirm = (paymentId: string) =>
      zone.admin.callOk("paymentservice.confirm_payment", { payment_id: paymentId });
    expect(await confirm(first.payment_id)).toMatchObject({ status: "confirmed", fulfilled: true });
    expect(await end()).toBe(renewedEnd);
    await zone.admin.callOk("adminservice.suspend_company", { company_id: id, reason: "Ownership review" });
    expect(await confirm(second.payment_id)).toMatchObject({ status: "confirmed", fulfilled: false });
    expect(await end()).toBe(renewedEnd);
  });
});

describe("payments whose purpose cannot apply are refused at initiation", () => {
  test("a second registration payment for an active company: InvalidState, no payment written", async () => {
    const { zone, ada } = cast;
    const quote = await zone.t.callOk("pricingservice.calculate_company_pricing", {
      company_type: "startup_fzc",
      shareholder_count: 1,
      subscription_plan: "monthly",
      early_bird: true,
    });
    expect(quote.total_due).toBe(765);
    const before = await paymentsOf(ada.client, companyId);
    const r = await ada.client.call("paymentservice.initiate_mobilepay", {
      entity_id: companyId,
      entity_type: "company",
      amount: quote.total_due,
      currency: "USD",
      description: "Registration again",
      payment_purpose: "company_registration",
      subscription_plan: "monthly",
    });
    expect(errorOf(r)).toMatchObject({ code: -32005, data: { type: "PaymentError", variant: "InvalidState" } });
    expect(await paymentsOf(ada.client, companyId)).toEqual(before);
  });

  test("a subscription payment for a suspended company: InvalidState, no payment written", async () => {
    const { zone, ada } = cast;
    const { companyId: other } = await startupWithDirectors();
    await zone.admin.callOk("adminservice.suspend_company", { company_id: other, reason: "Unpaid fees review" });
    expect(errorOf(await subscriptionPayment(ada.client, other, 90, "1_month"))).toMatchObject({
      code: -32005,
      data: { type: "PaymentError", variant: "InvalidState", status: "suspended" },
    });
    expect(await paymentsOf(ada.client, other)).toEqual([]);
  });

  test("a caller who is neither owner nor director: NotFound, nothing written", async () => {
    const { zone, ada } = cast;
    const eve = { client: await zone.t.register("eve@example.org") };
    const before = await paymentsOf(ada.client, companyId);
    expect(errorOf(await subscriptionPayment(eve.client, companyId, 90, "1_month"))).toMatchObject({
      code: -32003,
    });
    expect(await paymentsOf(ada.client, companyId)).toEqual(before);
    expect(await paymentsOf(eve.client, companyId)).toEqual([]);
  });
});
