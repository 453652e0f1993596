import { describe, expect, test } from "vitest";
import { companyPricing, PricingInputError, shareholderFee } from "../../src/domain/company-pricing.ts";

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
