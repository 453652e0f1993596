import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import { cents, formCompany, journeyCast, postMobileMoneySucceeded, signInAgain } from "./support.ts";

// Seed 001, company renewal paid by mobile money: a startup FZC with one shareholder and three directors is quoted
// and registered by the one price rule (directors only are not priced), its subscription nears its end, a director
// renews it for a year by mobile money, the provider's signed webhook confirms the payment and the renewal applies
// in that transaction; payments that cannot apply are refused before any money moves; a month is added later from
// the founder's wallet at the same rule. Each member reads the company at each step. Public API only (support.ts).

const cast = journeyCast({
  ada: { first_name: "Ada", last_name: "Founder" },
  dan: { first_name: "Dan", last_name: "Director" },
  dee: { first_name: "Dee", last_name: "Director" },
  dot: { first_name: "Dot", last_name: "Director" },
});

expectReached({
  PaymentStatus: ["pending", "confirmed"],
  SubscriptionStatus: ["expiring", "active"],
  CompanyStatus: ["active"],
});

const STEPS = [
  "the price list quotes the registration",
  "form the company through a draft, paid at the quote",
  "the subscription nears its end: the members see it expiring",
  "the renewal is quoted by the same rule",
  "payments that cannot apply are refused, nothing taken",
  "a director starts the mobile-money renewal: nothing moves yet",
  "the provider confirms: the subscription is extended in that call",
  "a repeated verdict changes nothing",
  "a month more from the founder's wallet, at the same rule",
] as const;

const DAY = 86_400;

test(`company renewal paid by mobile money (${STEPS.length} steps)`, async () => {
  const { zone, ada, dan, dee, dot } = cast;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);
  const company = (client = ada.client) => client.callOk("companyservice.get", { company_id: companyId });
  const balance = async (client = ada.client) => (await client.callOk("creditservice.get_balance")).balance;

  step("the price list quotes the registration");
  const quote = await zone.t.callOk("pricingservice.calculate_company_pricing", {
    company_type: "startup_fzc",
    shareholder_count: 1,
    subscription_plan: "monthly",
    early_bird: true,
  });
  expect(quote).toMatchObject({ setup_fee: 675, monthly_total: 90, subscription_amount: 90, total_due: 765 });

  step("form the company through a draft, paid at the quote");
  const directors = [dan, dee, dot].map((resident) => ({ resident, units: 0, role: "director" as const }));
  const formed = await formCompany(zone, { resident: ada, units: 1000 }, directors, { company_type: "startup_fzc" });
  const companyId = formed.companyId;
  expect(formed.charged).toBe(quote.total_due);
  const registered = await company();
  expect(registered).toMatchObject({
    status: "active",
    subscription_plan: "monthly",
    monthly_fee_rate: 90,
    shareholder_fee_rate: 10,
    setup_fee_paid: 675,
    subscription_end_date: "2026-12-23T10:00:00.000Z",
  });
  expect(registered.shareholders.map((h) => h.role)).toEqual(["shareholder", "director", "director", "director"]);

  step("the subscription nears its end: the members see it expiring");
  zone.t.clock.advance(20 * DAY);
  await signInAgain(zone, ada, dan, dee, dot);
  expect((await company(dan.client)).subscription_status).toBe("expiring");

  step("the renewal is quoted by the same rule");
  const prices = await zone.t.callOk("pricingservice.get_all_pricing");
  const year = prices.company_renewal_discounts.find((d) => d.plan === "1_year");
  expect(year).toMatchObject({ months: 12, discount_rate: 0.2 });
  const yearly = cents(registered.monthly_fee_rate * 12 * (1 - (year?.discount_rate ?? 0)));
  expect(yearly).toBe(864);
  const registrationYear = await zone.t.callOk("pricingservice.calculate_company_pricing", {
    company_type: "startup_fzc",
    shareholder_count: 1,
    subscription_plan: "one_year",
    early_bird: false,
  });
  expect(registrationYear.subscription_amount).toBe(yearly);

  step("payments that cannot apply are refused, nothing taken");
  const pay = (client: typeof dan.client, amount: number, purpose: string, plan: string) =>
    client.call("paymentservice.initiate_mobilepay", {
      entity_id: companyId,
      entity_type: "company",
      amount,
      currency: "USD",
      description: `Journey Works renewal (${plan})`,
      payment_purpose: purpose,
      subscription_plan: plan,
    });
  const perRow = await pay(dan.client, 960, "company_subscription", "1_year");
  expect("error" in perRow && perRow.error.data).toMatchObject({ variant: "InvalidAmount", price: 864 });
  const again = await pay(dan.client, 765, "company_registration", "monthly");
  expect("error" in again && again.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
  const stranger = await zone.t.register("stranger@example.org");
  const foreign = await pay(stranger, 864, "company_subscription", "1_year");
  expect("error" in foreign && foreign.error.code).toBe(-32003);
  const payments = () => dan.client.callOk("payment.find", { query: JSON.stringify({ entity_id: companyId }) });
  expect((await payments()).items).toEqual([]);

  step("a director starts the mobile-money renewal: nothing moves yet");
  const danBalance = await balance(dan.client);
  const adaBalance = await balance();
  const started = await pay(dan.client, yearly, "company_subscription", "1_year");
  if ("error" in started) throw new Error(`initiate_mobilepay: ${JSON.stringify(started.error)}`);
  expect(started.result).toMatchObject({ status: "pending", amount: 864, payment_purpose: "company_subscription" });
  expect((await company(dan.client)).subscription_end_date).toBe("2026-12-23T10:00:00.000Z");

  step("the provider confirms: the subscription is extended in that call");
  const ack = await postMobileMoneySucceeded(zone, started.result.mobilepay_order_id, yearly);
  expect(ack).toMatchObject({ matched: true, duplicate: false, status: "confirmed" });
  for (const member of [ada, dan, dee, dot]) {
    expect(await company(member.client)).toMatchObject({
      status: "active",
      subscription_plan: "one_year",
      subscription_end_date: "2027-12-23T10:00:00.000Z",
      subscription_status: "active",
    });
  }
  expect(await balance(dan.client)).toBe(danBalance);
  expect(await balance()).toBe(adaBalance);
  const [payment] = (await payments()).items;
  expect(payment).toMatchObject({ status: "confirmed", amount: 864, subscription_plan: "1_year" });
  const inbox = await dee.client.callOk("messageservice.list_company_messages", { company_id: companyId });
  expect(inbox.items[0]).toMatchObject({ title: "Subscription renewed" });
  expect(inbox.items[0]?.body).toContain("864.00 USD were paid by mobilepay");

  step("a repeated verdict changes nothing");
  const repeat = await postMobileMoneySucceeded(zone, started.result.mobilepay_order_id, yearly);
  expect(repeat).toMatchObject({ matched: true, status: "confirmed" });
  expect((await company()).subscription_end_date).toBe("2027-12-23T10:00:00.000Z");
  expect(await dee.client.callOk("messageservice.list_company_messages", { company_id: companyId })).toMatchObject({
    items: inbox.items,
  });

  step("a month more from the founder's wallet, at the same rule");
  const topUp = await ada.client.callOk("creditservice.initiate_topup", { amount: 90, provider: "mobilepay" });
  await postMobileMoneySucceeded(zone, topUp.mobilepay_order_id, 90);
  const before = await balance();
  const month = await ada.client.callOk("paymentservice.initiate_company_renewal", {
    company_id: companyId,
    plan: "1_month",
  });
  expect(month).toMatchObject({ amount_charged: 90, subscription_end_date: "2028-01-23T10:00:00.000Z" });
  expect(await balance()).toBe(cents(before - 90));
  expect((await company(dot.client)).subscription_end_date).toBe("2028-01-23T10:00:00.000Z");

  expect(done).toEqual([...STEPS]);
});
