import type { CompanySubscriptionPlan, CompanyType } from "../../generated/types.ts";
import { addMoney, multiplyMoney } from "./money.ts";
import { RESIDENT_PLANS, residentPlanPrice } from "./pricing.ts";

interface TypePricing {
  setup_fee: number;
  monthly_fee: number;
  included_shareholders: number;
  max_shareholders: number | null;
  shareholder_fee_rate: number;
}

/** Deployment price list of company registration (USD). */
export const COMPANY_PRICING_CURRENCY = "USD";
export const COMPANY_TYPES: Record<CompanyType, TypePricing> = {
  single_fzc: {
    setup_fee: 500,
    monthly_fee: 50,
    included_shareholders: 1,
    max_shareholders: 1,
    shareholder_fee_rate: 0,
  },
  startup_fzc: {
    setup_fee: 900,
    monthly_fee: 90,
    included_shareholders: 3,
    max_shareholders: 10,
    shareholder_fee_rate: 10,
  },
  growth_fzc: {
    setup_fee: 1500,
    monthly_fee: 150,
    included_shareholders: 5,
    max_shareholders: 50,
    shareholder_fee_rate: 8,
  },
  global_fzc: {
    setup_fee: 3000,
    monthly_fee: 300,
    included_shareholders: 10,
    max_shareholders: null,
    shareholder_fee_rate: 5,
  },
  coop_standard_fzc: {
    setup_fee: 700,
    monthly_fee: 60,
    included_shareholders: 10,
    max_shareholders: null,
    shareholder_fee_rate: 2,
  },
  coop_platinum_fzc: {
    setup_fee: 1200,
    monthly_fee: 120,
    included_shareholders: 25,
    max_shareholders: null,
    shareholder_fee_rate: 1,
  },
};

/** Prepaid discount of the registration plans (seed: 0.0, 0.2 or 0.4). */
export const COMPANY_PLANS: Record<CompanySubscriptionPlan, { months: number; prepaid_discount: number }> = {
  monthly: { months: 1, prepaid_discount: 0 },
  one_year: { months: 12, prepaid_discount: 0.2 },
  two_years: { months: 24, prepaid_discount: 0.4 },
};

export const COMPANY_RENEWAL_DISCOUNTS = [
  { plan: "1_month", months: 1, discount_rate: 0 },
  { plan: "6_months", months: 6, discount_rate: 0.1 },
  { plan: "1_year", months: 12, discount_rate: 0.2 },
  { plan: "2_years", months: 24, discount_rate: 0.3 },
  { plan: "3_years", months: 36, discount_rate: 0.4 },
];

export const EARLY_BIRD = { available: true, discount_rate: 0.25, ends_at: null as string | null };

export class PricingInputError extends Error {}

/** Shareholders beyond those the monthly fee covers pay the type's per-shareholder fee. */
export function shareholderFee(type: CompanyType, shareholderCount: number) {
  const t = COMPANY_TYPES[type];
  if (!Number.isInteger(shareholderCount) || shareholderCount < 1)
    throw new PricingInputError("shareholder_count must be at least 1");
  if (t.max_shareholders !== null && shareholderCount > t.max_shareholders) {
    throw new PricingInputError(`${type} allows at most ${t.max_shareholders} shareholder(s)`);
  }
  const additional = Math.max(0, shareholderCount - t.included_shareholders);
  return {
    applicable: t.shareholder_fee_rate > 0,
    shareholder_fee_rate: t.shareholder_fee_rate,
    included_shareholders: t.included_shareholders,
    additional_shareholders: additional,
    monthly_shareholder_fee: multiplyMoney(t.shareholder_fee_rate, additional),
  };
}

/** Registration price: setup fee (less early bird), monthly total, prepaid discount, total due. */
export function companyPricing(
  type: CompanyType,
  shareholderCount: number,
  plan: CompanySubscriptionPlan,
  earlyBird: boolean,
) {
  const t = COMPANY_TYPES[type];
  const fee = shareholderFee(type, shareholderCount);
  const earlyBirdApplied = earlyBird && EARLY_BIRD.available;
  const earlyRate = earlyBirdApplied ? EARLY_BIRD.discount_rate : 0;
  const setupFee = multiplyMoney(t.setup_fee, 1 - earlyRate);
  const monthlyTotal = addMoney(t.monthly_fee, fee.monthly_shareholder_fee);
  const { months, prepaid_discount } = COMPANY_PLANS[plan];
  const subscription = multiplyMoney(multiplyMoney(monthlyTotal, months), 1 - prepaid_discount);
  return {
    company_type: type,
    subscription_plan: plan,
    shareholder_count: shareholderCount,
    currency: COMPANY_PRICING_CURRENCY,
    setup_fee_base: t.setup_fee,
    early_bird_applied: earlyBirdApplied,
    early_bird_discount_rate: earlyRate,
    setup_fee: setupFee,
    monthly_fee_rate: t.monthly_fee,
    shareholder_fee_rate: fee.shareholder_fee_rate,
    included_shareholders: fee.included_shareholders,
    additional_shareholders: fee.additional_shareholders,
    monthly_shareholder_fee: fee.monthly_shareholder_fee,
    monthly_total: monthlyTotal,
    months,
    prepaid_discount,
    subscription_amount: subscription,
    total_due: addMoney(setupFee, subscription),
  };
}

export function allPricing() {
  return {
    currency: COMPANY_PRICING_CURRENCY,
    company_types: Object.entries(COMPANY_TYPES).map(([company_type, t]) => ({
      company_type: company_type as CompanyType,
      ...t,
    })),
    subscription_plans: Object.entries(COMPANY_PLANS).map(([subscription_plan, p]) => ({
      subscription_plan: subscription_plan as CompanySubscriptionPlan,
      ...p,
    })),
    company_renewal_discounts: COMPANY_RENEWAL_DISCOUNTS,
    early_bird: EARLY_BIRD,
    resident_plans: RESIDENT_PLANS.map((p) => residentPlanPrice(p)),
  };
}
