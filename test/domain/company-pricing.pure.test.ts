import { describe, expect, test } from "vitest";
import {
  COMPANY_TYPES,
  companyMonthlyFee,
  companyPricing,
  companySubscriptionPrice,
  PricingInputError,
  pricedHolders,
  registeredCompanyFees,
  shareholderFee,
} from "../../src/domain/company-pricing.ts";
import { companyRenewalPrice, type RenewalPlan } from "../../src/domain/subscriptions.ts";

describe("company pricing", () => {
  test("a startup with five shareholders on two years: shareholder fee, prepaid discount 40 percent, early bird", () => {
    const p = companyPricing("startup_fzc", 5, "two_years", true);
    expect(p).toMatchObject({
      setup_fee_base: 900,
      early_bird_applied: true,
      setup_fee: 675,
      additional_shareholders: 2,
      monthly_shareholder_fee: 20,
      monthly_total: 110,
      months: 24,
      prepaid_discount: 0.4,
      subscription_amount: 1584,
      total_due: 2259,
    });
  });

  test("the prepaid discount is 0.0, 0.2 or 0.4 by plan", () => {
    expect(companyPricing("single_fzc", 1, "monthly", false).prepaid_discount).toBe(0);
    expect(companyPricing("single_fzc", 1, "one_year", false).prepaid_discount).toBe(0.2);
    expect(companyPricing("single_fzc", 1, "two_years", false).prepaid_discount).toBe(0.4);
  });

  test("a shareholder count below 1 or above the type's maximum is refused", () => {
    expect(() => shareholderFee("single_fzc", 2)).toThrow(PricingInputError);
    expect(() => shareholderFee("growth_fzc", 0)).toThrow(PricingInputError);
  });
});

describe("one price rule (issue 30)", () => {
  const startup = { company_type: "startup_fzc" as const, monthly_fee_rate: 90, shareholder_fee_rate: 10 };
  const holder = (role: string | null) => ({ name: "H", email: "h@example.org", resident_id: null, units: 1, role });

  test("priced holders are the cap-table rows that are not only directors", () => {
    expect(pricedHolders([holder("shareholder"), holder("director"), holder("director"), holder("director")])).toBe(1);
    expect(pricedHolders([holder(null), holder("founding_member"), holder("director")])).toBe(2);
  });

  test("a registered company's fees: the snapshot, the list price when it has none, its priced holders", () => {
    const table = [holder("shareholder"), holder("director"), holder("director"), holder("director")];
    expect(registeredCompanyFees({ ...startup, shareholders: table })).toEqual({ ...startup, priced_holders: 1 });
    expect(registeredCompanyFees({ ...startup, monthly_fee_rate: 0, shareholders: table }).monthly_fee_rate).toBe(90);
    expect(companyMonthlyFee(registeredCompanyFees({ ...startup, shareholders: table }))).toBe(90);
  });

  test("monthly fee: base plus the per-holder fee beyond those included", () => {
    expect(companyMonthlyFee({ ...startup, priced_holders: 3 })).toBe(90);
    expect(companyMonthlyFee({ ...startup, priced_holders: 4 })).toBe(100);
    expect(companyMonthlyFee({ ...startup, priced_holders: 0 })).toBe(90);
  });

  test("discount by months: 0, 10, 20, 40, 40 percent for 1, 6, 12, 24, 36", () => {
    const fees = { ...startup, priced_holders: 1 };
    expect([1, 6, 12, 24, 36].map((m) => companySubscriptionPrice(fees, m).discountRate)).toEqual([
      0, 0.1, 0.2, 0.4, 0.4,
    ]);
    expect(companySubscriptionPrice(fees, 24)).toMatchObject({ monthlyFee: 90, baseAmount: 2160, amount: 1296 });
    expect(() => companySubscriptionPrice(fees, 2)).toThrow(RangeError);
  });

  test.each([
    ["monthly", "1_month"],
    ["one_year", "1_year"],
    ["two_years", "2_years"],
  ] as const)("a %s registration period costs what a %s renewal at list prices costs", (plan, renewal) => {
    for (const type of Object.keys(COMPANY_TYPES) as (keyof typeof COMPANY_TYPES)[]) {
      const t = COMPANY_TYPES[type];
      for (const holders of [1, t.included_shareholders, t.included_shareholders + 1]) {
        if (t.max_shareholders !== null && holders > t.max_shareholders) continue;
        const fees = {
          company_type: type,
          monthly_fee_rate: t.monthly_fee,
          shareholder_fee_rate: t.shareholder_fee_rate,
          priced_holders: holders,
        };
        expect(companyPricing(type, holders, plan, true).subscription_amount).toBe(
          companyRenewalPrice(fees, renewal as RenewalPlan).amount,
        );
      }
    }
  });
});
