import type { CompanyStatus, CompanySubscriptionPlan, SubscriptionStatus } from "../../generated/types.ts";
import { type CompanyFees, companySubscriptionPrice } from "./company-pricing.ts";
import { RESIDENT_PLANS as RESIDENT_PLAN_PRICES, residentPlanPrice } from "./pricing.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Subscription plans and dates (docs/decisions.md "Subscription plans and their mapping"). One table says, per
 * duration, the code of each plan family:
 * - resident plans (`DigitalResident.subscription_plan`, chosen at creation or with update_subscription, used at
 *   activation and for auto-renewal): `6_months`, `1_year`, `2_years`, `3_years`;
 * - renewal plans (`paymentservice.initiate_renewal`, `initiate_company_renewal`): those four and `1_month`;
 * - company plans (`ZoneCompany.subscription_plan`, `CompanySubscriptionPlan`): `monthly`, `one_year`, `two_years`.
 * Prices are elsewhere (src/domain/pricing.ts, company-pricing.ts); this file only says durations and codes.
 */

export const RESIDENT_PLANS = ["6_months", "1_year", "2_years", "3_years"] as const;
export type ResidentPlan = (typeof RESIDENT_PLANS)[number];

export const RENEWAL_PLANS = ["1_month", "6_months", "1_year", "2_years", "3_years"] as const;
export type RenewalPlan = (typeof RENEWAL_PLANS)[number];

export interface PlanDuration {
  months: number;
  renewal: RenewalPlan;
  /** The resident plan of this duration; null: a renewal of this length leaves the resident's plan as it was. */
  resident: ResidentPlan | null;
  /** The company plan of this duration; null: a renewal of this length leaves the company's plan as it was. */
  company: CompanySubscriptionPlan | null;
}

export const PLAN_DURATIONS: readonly PlanDuration[] = [
  { months: 1, renewal: "1_month", resident: null, company: "monthly" },
  { months: 6, renewal: "6_months", resident: "6_months", company: null },
  { months: 12, renewal: "1_year", resident: "1_year", company: "one_year" },
  { months: 24, renewal: "2_years", resident: "2_years", company: "two_years" },
  { months: 36, renewal: "3_years", resident: "3_years", company: null },
];

/** A subscription is `expiring` from this many days before its end. */
export const EXPIRING_WITHIN_DAYS = 30;

const DAY_MS = 86_400_000;

export function isResidentPlan(plan: string): plan is ResidentPlan {
  return (RESIDENT_PLANS as readonly string[]).includes(plan);
}

export function isRenewalPlan(plan: string): plan is RenewalPlan {
  return (RENEWAL_PLANS as readonly string[]).includes(plan);
}

function durationOf(pick: (d: PlanDuration) => string | null, plan: string): PlanDuration | null {
  return PLAN_DURATIONS.find((d) => pick(d) === plan) ?? null;
}

/** Months of a resident, renewal or company plan code; null for an unknown code. */
export function planMonths(plan: string): number | null {
  const d = durationOf((x) => x.renewal, plan) ?? durationOf((x) => x.company, plan);
  return d?.months ?? null;
}

/** The renewal plan of a renewal or company plan code (a subscription payment's plan); null for another code. */
export function renewalPlanOfCode(plan: string): RenewalPlan | null {
  return (durationOf((x) => x.renewal, plan) ?? durationOf((x) => x.company, plan))?.renewal ?? null;
}

/** The renewal plan that renews a resident or company plan for the same duration. */
export function renewalPlanOf(plan: ResidentPlan | CompanySubscriptionPlan): RenewalPlan {
  const d = durationOf((x) => x.resident, plan) ?? durationOf((x) => x.company, plan);
  if (!d) throw new RangeError(`unknown plan ${plan}`);
  return d.renewal;
}

/** The resident plan stored after a renewal: the renewal's own code, or null (keep the current plan) for `1_month`. */
export function residentPlanAfterRenewal(renewal: RenewalPlan): ResidentPlan | null {
  return durationOf((x) => x.renewal, renewal)?.resident ?? null;
}

/** The company plan stored after a renewal: same duration, or null (keep the current plan) for 6 and 36 months. */
export function companyPlanAfterRenewal(renewal: RenewalPlan): CompanySubscriptionPlan | null {
  return durationOf((x) => x.renewal, renewal)?.company ?? null;
}

/**
 * `date` plus whole calendar months in UTC, the time of day kept; a day the target month lacks becomes its last
 * day (31 January + 1 month = 28 or 29 February).
 */
export function addMonths(date: Date, months: number): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const out = new Date(date.getTime());
  out.setUTCFullYear(y, m, Math.min(date.getUTCDate(), lastDay));
  return out;
}

/** Dates of a subscription starting at `start`: it covers [start, end), `end` exclusive. */
export function subscriptionPeriod(start: Date, plan: string): { start: Date; end: Date } {
  const months = planMonths(plan);
  if (months === null) throw new RangeError(`unknown plan ${plan}`);
  return { start, end: addMonths(start, months) };
}

/** A renewal extends from the later of the current end and now (paymentservice.initiate_renewal). */
export function renewedEnd(currentEnd: Date | null, now: Date, plan: RenewalPlan): Date {
  const from = currentEnd && currentEnd.getTime() > now.getTime() ? currentEnd : now;
  return subscriptionPeriod(from, plan).end;
}

/**
 * Subscription status, computed from the end date at read time and never stored: `none` without an end date,
 * `suspended` from the end instant on (the period is [start, end)), `expiring` from 30 days before the end
 * (inclusive), `active` before that.
 */
export function subscriptionStatus(end: Date | null, now: Date): SubscriptionStatus {
  if (end === null) return "none";
  const left = end.getTime() - now.getTime();
  if (left <= 0) return "suspended";
  if (left <= EXPIRING_WITHIN_DAYS * DAY_MS) return "expiring";
  return "active";
}

/*
 * Renewals (issue 15, docs/decisions.md "Renewals and auto-renewal"): what a renewal costs and when the daily
 * auto-renewal sweep renews. Prices come from src/domain/pricing.ts (residents) and company-pricing.ts (companies).
 */

/** A subscription with `auto_renewal` is renewed by the sweep once its end is at most this many days ahead. */
export const AUTO_RENEWAL_WINDOW_DAYS = 3;

/** Whole days until `end` (0 once passed); null without an end date. */
export function daysRemaining(end: Date | null, now: Date): number | null {
  if (end === null) return null;
  return Math.max(0, Math.floor((end.getTime() - now.getTime()) / DAY_MS));
}

/** Due for auto-renewal: the end lies ahead, at most AUTO_RENEWAL_WINDOW_DAYS away (the end is exclusive). */
export function dueForAutoRenewal(end: Date | null, now: Date): boolean {
  if (end === null) return false;
  const left = end.getTime() - now.getTime();
  return left > 0 && left <= AUTO_RENEWAL_WINDOW_DAYS * DAY_MS;
}

/** The latest end date the sweep renews at `now`. */
export function autoRenewalHorizon(now: Date): Date {
  return new Date(now.getTime() + AUTO_RENEWAL_WINDOW_DAYS * DAY_MS);
}

/** The renewal plan auto-renewal uses: the stored resident or company plan's duration, `1_month` without one. */
export function autoRenewalPlan(stored: string | null): RenewalPlan {
  if (stored !== null && (isResidentPlan(stored) || isCompanyPlan(stored))) return renewalPlanOf(stored);
  return "1_month";
}

function isCompanyPlan(plan: string): plan is CompanySubscriptionPlan {
  return PLAN_DURATIONS.some((d) => d.company === plan);
}

/** A plan code a renewal accepts, or the InvalidInput refusal naming the codes. */
export function renewalPlanRefusal(plan: string): Refusal<"InvalidInput"> | null {
  if (isRenewalPlan(plan)) return null;
  return refuse("InvalidInput", `plan must be one of ${RENEWAL_PLANS.join(", ")}`, { plan });
}

export interface RenewalPrice {
  months: number;
  /** Before the discount. */
  baseAmount: number;
  discountRate: number;
  amount: number;
}

/** A resident's renewal: the residency monthly fee x months less the duration discount (PricingService's table). */
export function residentRenewalPrice(plan: RenewalPlan): RenewalPrice {
  const entry = RESIDENT_PLAN_PRICES.find((p) => p.plan === plan);
  if (!entry) throw new RangeError(`no residency price for ${plan}`);
  const price = residentPlanPrice(entry);
  return {
    months: price.months,
    baseAmount: price.base_amount,
    discountRate: price.discount_rate,
    amount: price.amount,
  };
}

/** A company's renewal: the one price rule (companySubscriptionPrice) for the plan's months, no setup fee. */
export function companyRenewalPrice(c: CompanyFees, plan: RenewalPlan): RenewalPrice {
  const months = planMonths(plan);
  if (months === null) throw new RangeError(`no company renewal of ${plan}`);
  const { baseAmount, discountRate, amount } = companySubscriptionPrice(c, months);
  return { months, baseAmount, discountRate, amount };
}

/**
 * An active or inactive (lapsed) company renews; a renewal makes an inactive one active again. A draft was never
 * subscribed; suspended and voided ones may not (src/domain/company-status.ts, action `renew`).
 */
export function companyRenewalRefusal(status: CompanyStatus): Refusal<"InvalidState"> | null {
  if (status === "active" || status === "inactive") return null;
  return refuse("InvalidState", `only an active or lapsed company renews its subscription; this one is ${status}`, {
    status,
  });
}

/** The start date after a renewal: kept while the period runs on, a new period from now after a lapse. */
export function renewedStart(start: Date | null, end: Date | null, now: Date): Date {
  if (start !== null && end !== null && end.getTime() > now.getTime()) return start;
  return now;
}
