import { multiplyMoney } from "./money.ts";

/** Residency plans: months and duration discount (deployment pricing; credits are USD). */
export const RESIDENT_PLANS = [
  { plan: "1_month", months: 1, discountRate: 0 },
  { plan: "6_months", months: 6, discountRate: 0.1 },
  { plan: "1_year", months: 12, discountRate: 0.15 },
  { plan: "2_years", months: 24, discountRate: 0.2 },
  { plan: "3_years", months: 36, discountRate: 0.25 },
] as const;

export const RESIDENT_MONTHLY_FEE_USD = 10;

export interface PlanPrice {
  plan: string;
  months: number;
  base_amount: number;
  discount_rate: number;
  amount: number;
}

/** What a residency plan costs: monthly fee x months, less the duration discount, rounded to cents. */
export function residentPlanPrice(
  plan: (typeof RESIDENT_PLANS)[number],
  monthlyFee = RESIDENT_MONTHLY_FEE_USD,
): PlanPrice {
  const base = multiplyMoney(monthlyFee, plan.months);
  return {
    plan: plan.plan,
    months: plan.months,
    base_amount: base,
    discount_rate: plan.discountRate,
    amount: multiplyMoney(base, 1 - plan.discountRate),
  };
}

export const CREDIT_PRICING = {
  currency: "USD" as const,
  kyc_fee: 25,
  topup_min_amount: 5,
  topup_max_amount: 5000,
  topup_presets: [10, 25, 50, 100],
  topup_providers: ["mobilepay", "cardpsp"],
  auto_topup_min_amount: 10,
};
