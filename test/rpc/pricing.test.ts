import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";
import { errorOf } from "../support/helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test("the price list is public and matches its schema", async () => {
  const pricing = await t.callOk("pricingservice.get_all_pricing");
  expect(pricing.company_types).toHaveLength(6);
  expect(pricing.subscription_plans.map((p) => p.prepaid_discount)).toEqual([0, 0.2, 0.4]);
});

test("calculate_company_pricing refuses a shareholder count over the type's maximum with InvalidInput", async () => {
  const r = await t.call("pricingservice.calculate_company_pricing", {
    company_type: "single_fzc",
    shareholder_count: 3,
    subscription_plan: "monthly",
    early_bird: false,
  });
  expect(errorOf(r)).toMatchObject({ code: -32006, data: { type: "PricingError", variant: "InvalidInput" } });
});

test("an enum value outside the set is -32602", async () => {
  const r = await t.rpc("pricingservice.get_shareholder_fee_rate", { company_type: "mega_fzc", shareholder_count: 1 });
  expect(r.error?.code).toBe(-32602);
});

test("get_shareholder_fee_rate answers the fee for the count", async () => {
  const fee = await t.callOk("pricingservice.get_shareholder_fee_rate", {
    company_type: "growth_fzc",
    shareholder_count: 7,
  });
  expect(fee).toMatchObject({
    applicable: true,
    additional_shareholders: 2,
    monthly_shareholder_fee: 16,
    currency: "USD",
  });
});
