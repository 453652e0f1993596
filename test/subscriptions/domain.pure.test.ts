import { describe, expect, test } from "vitest";
import {
  autoRenewalPlan,
  companyRenewalPrice,
  companyRenewalRefusal,
  daysRemaining,
  dueForAutoRenewal,
  renewalPlanRefusal,
  renewedStart,
  residentRenewalPrice,
} from "../../src/domain/subscriptions.ts";

// The renewal rules of src/domain/subscriptions.ts, without a database.

const at = (iso: string) => new Date(iso);
const NOW = at("2026-11-23T10:00:00.000Z");

describe("renewal prices", () => {
  test.each([
    ["1_month", 10, 0],
    ["6_months", 54, 0.1],
    ["1_year", 102, 0.15],
    ["2_years", 192, 0.2],
    ["3_years", 270, 0.25],
  ] as const)("resident %s costs %d (discount %d)", (plan, amount, rate) => {
    expect(residentRenewalPrice(plan)).toMatchObject({ amount, discountRate: rate });
  });

  const startup = { company_type: "startup_fzc" as const, monthly_fee_rate: 90, shareholder_fee_rate: 10 };

  test("company renewal: monthly x months x (1 - discount), exact cents", () => {
    expect(companyRenewalPrice({ ...startup, priced_holders: 1 }, "3_years")).toMatchObject({
      months: 36,
      baseAmount: 3240,
      discountRate: 0.4,
      amount: 1944,
    });
    const odd = { company_type: "growth_fzc" as const, monthly_fee_rate: 33.33, shareholder_fee_rate: 0 };
    expect(companyRenewalPrice({ ...odd, priced_holders: 1 }, "6_months").amount).toBe(179.98);
  });
});

describe("renewal rules", () => {
  test("plan codes: the five renewal plans only", () => {
    expect(renewalPlanRefusal("1_month")).toBeNull();
    expect(renewalPlanRefusal("monthly")).toMatchObject({ refusal: "InvalidInput" });
  });

  test("only an active or inactive company renews", () => {
    expect(companyRenewalRefusal("active")).toBeNull();
    expect(companyRenewalRefusal("inactive")).toBeNull();
    for (const s of ["draft", "pending_signatures", "suspended", "voided"] as const) {
      expect(companyRenewalRefusal(s)).toMatchObject({ refusal: "InvalidState", details: { status: s } });
    }
  });

  test("auto-renewal window: end in (now, now + 3 days]", () => {
    expect(dueForAutoRenewal(at("2026-11-26T10:00:00.000Z"), NOW)).toBe(true);
    expect(dueForAutoRenewal(at("2026-11-26T10:00:00.001Z"), NOW)).toBe(false);
    expect(dueForAutoRenewal(at("2026-11-23T10:00:00.001Z"), NOW)).toBe(true);
    expect(dueForAutoRenewal(NOW, NOW)).toBe(false);
    expect(dueForAutoRenewal(null, NOW)).toBe(false);
  });

  test("auto-renewal plan: the stored plan's duration, 1_month without one", () => {
    expect(autoRenewalPlan("2_years")).toBe("2_years");
    expect(autoRenewalPlan("one_year")).toBe("1_year");
    expect(autoRenewalPlan("monthly")).toBe("1_month");
    expect(autoRenewalPlan(null)).toBe("1_month");
  });

  test("days remaining: whole days, 0 once passed, null without an end", () => {
    expect(daysRemaining(at("2026-11-24T09:59:59.999Z"), NOW)).toBe(0);
    expect(daysRemaining(at("2026-11-24T10:00:00.000Z"), NOW)).toBe(1);
    expect(daysRemaining(at("2026-01-01T00:00:00.000Z"), NOW)).toBe(0);
    expect(daysRemaining(null, NOW)).toBeNull();
  });

  test("start after a renewal: kept while the period runs, now after a lapse or without one", () => {
    const start = at("2026-01-01T00:00:00.000Z");
    expect(renewedStart(start, at("2026-12-01T00:00:00.000Z"), NOW)).toBe(start);
    expect(renewedStart(start, NOW, NOW)).toBe(NOW);
    expect(renewedStart(null, null, NOW)).toBe(NOW);
  });
});
