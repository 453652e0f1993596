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

/**
 * The company discount of a subscription period by its length in months: one table for the registration plans (the
 * seed's prepaid discount 0.0 / 0.2 / 0.4 for 1, 12 and 24 months) and the renewal plans, so a period of a given length
 * costs the same whether it is bought at registration, renewed from the wallet or paid by a provider.
 */
export const COMPANY_DISCOUNTS: readonly { months: number; discount_rate: number }[] = [
  { months: 1, discount_rate: 0 },
  { months: 6, discount_rate: 0.1 },
  { months: 12, discount_rate: 0.2 },
  { months: 24, discount_rate: 0.4 },
  { months: 36, discount_rate: 0.4 },
];

/** The company discount of a period of `months` (a length no plan has is a programming error). */
export function companyDiscount(months: number): number {
  const found = COMPANY_DISCOUNTS.find((d) => d.months === months);
  if (!found) throw new RangeError(`no company subscription period of ${months} months`);
  return found.discount_rate;
}

/** The registration plans: months and their prepaid discount (the company discount of that length). */
export const COMPANY_PLANS: Record<CompanySubscriptionPlan, { months: number; prepaid_discount: number }> = {
  monthly: { months: 1, prepaid_discount: companyDiscount(1) },
  one_year: { months: 12, prepaid_discount: companyDiscount(12) },
  two_years: { months: 24, prepaid_discount: companyDiscount(24) },
};

export const COMPANY_RENEWAL_DISCOUNTS = [
  { plan: "1_month", months: 1 },
  { plan: "6_months", months: 6 },
  { plan: "1_year", months: 12 },
  { plan: "2_years", months: 24 },
  { plan: "3_years", months: 36 },
].map((p) => ({ ...p, discount_rate: companyDiscount(p.months) }));

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

/** What a company's monthly fee is made of: the base fee, the per-holder fee and the holders priced. */
export interface CompanyFees {
  company_type: CompanyType;
  monthly_fee_rate: number;
  shareholder_fee_rate: number;
  /** Cap-table rows priced (pricedHolders): every row that is not only a director. */
  priced_holders: number;
}

/** The cap-table rows a company pays for: every row that is not only a director. */
export const pricedHolders = (table: readonly { role?: string | null }[]): number =>
  table.filter((r) => r.role !== "director").length;

/** The monthly fee: the base fee plus the per-holder fee for each priced holder beyond those the type includes. */
export function companyMonthlyFee(c: CompanyFees): number {
  const additional = Math.max(0, c.priced_holders - COMPANY_TYPES[c.company_type].included_shareholders);
  return addMoney(c.monthly_fee_rate, multiplyMoney(c.shareholder_fee_rate, additional));
}

/**
 * The one price rule of a company's subscription period (seed 001): monthly fee x months x (1 - company
 * discount(months)). Registration (its first period, list prices), renewal (the registration snapshot) and the
 * provider-paid purposes all price with it.
 */
export function companySubscriptionPrice(c: CompanyFees, months: number) {
  const monthlyFee = companyMonthlyFee(c);
  const discountRate = companyDiscount(months);
  const baseAmount = multiplyMoney(monthlyFee, months);
  return { monthlyFee, months, baseAmount, discountRate, amount: multiplyMoney(baseAmount, 1 - discountRate) };
}

/**
 * The fees of a registered company: its registration snapshot (the type's list price when the snapshot has no
 * monthly fee) and its cap table's priced holders.
 */
export function registeredCompanyFees(company: {
  company_type: CompanyType;
  monthly_fee_rate: number;
  shareholder_fee_rate: number;
  shareholders: readonly { role?: string | null }[];
}): CompanyFees {
  const list = COMPANY_TYPES[company.company_type].monthly_fee;
  return {
    company_type: company.company_type,
    monthly_fee_rate: company.monthly_fee_rate > 0 ? company.monthly_fee_rate : list,
    shareholder_fee_rate: company.shareholder_fee_rate,
    priced_holders: pricedHolders(company.shareholders),
  };
}

/**
 * Registration price: setup fee (less early bird) and the first period by the one price rule at list prices;
 * `shareholderCount` is the priced holders (pricedHolders).
 */
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
  const fees = {
    company_type: type,
    monthly_fee_rate: t.monthly_fee,
    shareholder_fee_rate: t.shareholder_fee_rate,
    priced_holders: shareholderCount,
  };
  const period = companySubscriptionPrice(fees, COMPANY_PLANS[plan].months);
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
    monthly_total: period.monthlyFee,
    months: period.months,
    prepaid_discount: period.discountRate,
    subscription_amount: period.amount,
    total_due: addMoney(setupFee, period.amount),
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
