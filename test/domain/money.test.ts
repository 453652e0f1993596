import { describe, expect, test } from "vitest";
import { roundMoney } from "../../src/domain/money.ts";
import { RESIDENT_PLANS, residentPlanPrice } from "../../src/domain/pricing.ts";

describe("money", () => {
  test.each([
    [1.005, 1.0],
    [1.015, 1.02],
    [2.5, 2.5],
    [0.125, 0.12],
    [0.135, 0.14],
    [10.1, 10.1],
    [-1.005, -1.0],
  ])("roundMoney(%f) rounds half to even on cents: %f", (input, expected) => {
    expect(roundMoney(input)).toBe(expected);
  });

  test("a plan costs monthly fee x months less its duration discount", () => {
    const year = RESIDENT_PLANS.find((p) => p.plan === "1_year")!;
    expect(residentPlanPrice(year, 10)).toEqual({
      plan: "1_year",
      months: 12,
      base_amount: 120,
      discount_rate: 0.15,
      amount: 102,
    });
  });
});
