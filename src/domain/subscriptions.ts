import type { CompanySubscriptionPlan, SubscriptionStatus } from "../../generated/types.ts";

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
