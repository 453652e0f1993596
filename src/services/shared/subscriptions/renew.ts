import type { DigitalResidentRow, ZoneCompanyRow } from "../../../../generated/entities.ts";
import type { SubscriptionInfo } from "../../../../generated/types.ts";
import { registeredCompanyFees } from "../../../domain/company-pricing.ts";
import { type Refusal, refuse } from "../../../domain/refusal.ts";
import { effectiveStatus, statusRefusal } from "../../../domain/resident-status.ts";
import {
  companyPlanAfterRenewal,
  companyRenewalPrice,
  companyRenewalRefusal,
  type RenewalPlan,
  renewedEnd,
  renewedStart,
  residentPlanAfterRenewal,
  residentRenewalPrice,
} from "../../../domain/subscriptions.ts";
import { postCompanyMessage, renewCompanyRow, renewResidentRow } from "../../../repos/subscriptions.ts";
import type { MoneyMover } from "../money-out.ts";
import { toSubscriptionInfo } from "./info.ts";
import { debitForRenewal } from "./wallet.ts";

/**
 * Renewals (docs/decisions.md "Renewals and auto-renewal"): the entity is row-locked by the caller, checked,
 * priced, the payer's wallet debited, the period extended from max(current end, now), all in the caller's
 * transaction. Shared by paymentservice.initiate_renewal / initiate_company_renewal and the auto-renewal sweep.
 * Refusals are values (nothing written); the caller maps them.
 */

export type RenewalRefusal = Refusal<"InvalidState" | "InsufficientFunds">;

const short = (balance: number, amount: number): RenewalRefusal =>
  refuse("InsufficientFunds", "the wallet balance is below the renewal price", { balance, amount });

/** The renewed period, extended from max(current end, now), and the plan (`planAfter`, else the current one). */
function newPeriod<P>(
  row: { subscription_start_date: Date | null; subscription_end_date: Date | null; subscription_plan: P },
  plan: RenewalPlan,
  planAfter: P | null,
  now: Date,
) {
  return {
    subscription_start_date: renewedStart(row.subscription_start_date, row.subscription_end_date, now),
    subscription_end_date: renewedEnd(row.subscription_end_date, now, plan),
    subscription_plan: planAfter ?? row.subscription_plan,
  };
}

/** Renews a resident (locked, active or expired) for `plan`, paid by `payerId`'s wallet. */
export async function renewResident(
  mover: MoneyMover,
  resident: DigitalResidentRow,
  plan: RenewalPlan,
  payerId: string,
): Promise<SubscriptionInfo | RenewalRefusal> {
  const { em } = mover;
  const now = mover.now();
  const denied = statusRefusal(effectiveStatus(resident, now), "renew");
  if (denied) return denied;
  const price = residentRenewalPrice(plan);
  const debit = await debitForRenewal(mover, {
    userId: payerId,
    amount: price.amount,
    description: `Residency renewal ${plan} for ${resident.resident_id}`,
    referenceType: "subscription",
    referenceId: resident.resident_id,
  });
  if ("short" in debit) return short(debit.balance, price.amount);
  const changes = await extendResident(em, resident, plan, now);
  return toSubscriptionInfo({ type: "resident", id: resident.resident_id, row: { ...resident, ...changes } }, now, {
    ...debit,
    amount: price.amount,
    discountRate: price.discountRate,
  });
}

/**
 * Extends a resident's period (locked by the caller, its status checked: active or expired, active after) by `plan`
 * from max(current end, now) and sets the plan that follows; shared by the wallet renewal and a confirmed
 * resident_subscription payment. Answers the new dates and plan.
 */
export async function extendResident(em: MoneyMover["em"], resident: DigitalResidentRow, plan: RenewalPlan, now: Date) {
  const changes = newPeriod(resident, plan, residentPlanAfterRenewal(plan), now);
  // The row is locked and its status checked, so this touches it; a 0 would mean a broken lock.
  if ((await renewResidentRow(em, resident.resident_id, changes, now)) === 0) {
    throw new Error(`resident ${resident.resident_id} changed under its row lock`);
  }
  return changes;
}

/** Renews a company (locked, active or inactive: active after) for `plan`, paid by `payerId`'s wallet; posts the CompanyMessage. */
export async function renewCompany(
  mover: MoneyMover,
  company: ZoneCompanyRow,
  plan: RenewalPlan,
  payerId: string,
): Promise<SubscriptionInfo | RenewalRefusal> {
  const { em } = mover;
  const now = mover.now();
  const denied = companyRenewalRefusal(company.status);
  if (denied) return denied;
  const price = companyRenewalPrice(registeredCompanyFees(company), plan);
  const debit = await debitForRenewal(mover, {
    userId: payerId,
    amount: price.amount,
    description: `Company renewal ${plan} for ${company.company_id}`,
    referenceType: "company",
    referenceId: company.company_id,
  });
  if ("short" in debit) return short(debit.balance, price.amount);
  const changes = await extendCompany(em, company, plan, now, {
    amount: price.amount,
    paidWith: "were debited from the paying member's credit wallet",
  });
  return toSubscriptionInfo({ type: "company", id: company.company_id, row: { ...company, ...changes } }, now, {
    ...debit,
    amount: price.amount,
    discountRate: price.discountRate,
  });
}

/**
 * Extends a company's period (locked by the caller, its status checked) by `plan` from max(current end, now), sets
 * the plan that follows and posts the renewal's CompanyMessage; shared by the wallet renewal and a confirmed
 * company_subscription payment. Answers the new dates and plan.
 */
export async function extendCompany(
  em: MoneyMover["em"],
  company: ZoneCompanyRow,
  plan: RenewalPlan,
  now: Date,
  paid: { amount: number /** How the amount was paid, after "<amount> USD". */; paidWith: string },
) {
  const changes = newPeriod(company, plan, companyPlanAfterRenewal(plan), now);
  if ((await renewCompanyRow(em, company.company_id, changes, now)) === 0) {
    throw new Error(`company ${company.company_id} changed under its row lock`);
  }
  await postCompanyMessage(
    em,
    company.company_id,
    {
      title: "Subscription renewed",
      body:
        `The subscription of ${company.name} was renewed (${plan}) until ` +
        `${changes.subscription_end_date.toISOString().slice(0, 10)}; ${paid.amount.toFixed(2)} USD ` +
        `${paid.paidWith}. No setup fee was charged.`,
      messageType: "notification",
    },
    now,
  );
  return changes;
}
