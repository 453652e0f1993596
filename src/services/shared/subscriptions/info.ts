import type { DigitalResidentRow, ZoneCompanyRow } from "../../../../generated/entities.ts";
import type { SubscriptionInfo } from "../../../../generated/types.ts";
import { daysRemaining, subscriptionStatus } from "../../../domain/subscriptions.ts";
import type { Debited } from "./wallet.ts";

/** What a renewal charged, for the SubscriptionInfo it answers (null on status reads). */
export interface Charge extends Debited {
  amount: number;
  discountRate: number;
}

type Subscribed = Pick<
  DigitalResidentRow | ZoneCompanyRow,
  "subscription_plan" | "subscription_start_date" | "subscription_end_date" | "auto_renewal"
>;

export function toSubscriptionInfo(
  entity: { type: "resident" | "company"; id: string; row: Subscribed },
  now: Date,
  charge: Charge | null = null,
): SubscriptionInfo {
  const { row } = entity;
  return {
    entity_type: entity.type,
    entity_id: entity.id,
    plan: row.subscription_plan,
    status: subscriptionStatus(row.subscription_end_date, now),
    subscription_start_date: row.subscription_start_date?.toISOString() ?? null,
    subscription_end_date: row.subscription_end_date?.toISOString() ?? null,
    days_remaining: daysRemaining(row.subscription_end_date, now),
    auto_renewal: row.auto_renewal,
    amount_charged: charge?.amount ?? null,
    discount_rate: charge?.discountRate ?? null,
    currency: "USD",
    credit_transaction_id: charge?.transactionId ?? null,
    balance_after: charge?.balanceAfter ?? null,
  };
}
