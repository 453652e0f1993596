import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test("the price list is public and matches its schema", async () => {
  const r = await t.rpc("pricingservice.get_all_pricing");
  expect(r.result.company_types).toHaveLength(6);
  expect(r.result.subscription_plans.map((p: { prepaid_discount: number }) => p.prepaid_discount)).toEqual([
    0, 0.2, 0.4,
  ]);
});

test("calculate_company_pricing refuses a shareholder count over the type's maximum with InvalidInput", async () => {
  const r = await t.rpc("pricingservice.calculate_company_pricing", {
    company_type: "single_fzc",
    shareholder_count: 3,
    subscription_plan: "monthly",
    early_bird: false,
  });
  expect(r.error).toMatchObject({ code: -32006, data: { type: "PricingError", variant: "InvalidInput" } });
});

test("an enum value outside the set is -32602", async () => {
  const r = await t.rpc("pricingservice.get_shareholder_fee_rate", { company_type: "mega_fzc", shareholder_count: 1 });
  expect(r.error?.code).toBe(-32602);
});

test("get_shareholder_fee_rate answers the fee for the count", async () => {
  const r = await t.rpc("pricingservice.get_shareholder_fee_rate", {
    company_type: "growth_fzc",
    shareholder_count: 7,
  });
  expect(r.result).toMatchObject({
    applicable: true,
    additional_shareholders: 2,
    monthly_shareholder_fee: 16,
    currency: "USD",
  });
});
