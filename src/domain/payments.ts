import type { CompanyStatus, PaymentStatus } from "../../generated/types.ts";
import { type CompanyFees, companySubscriptionPrice } from "./company-pricing.ts";
import { TOP_UP_PURPOSES } from "./ledger.ts";
import { type Cents, isValidAmount, toCents } from "./money.ts";
import { CREDIT_PRICING, RESIDENT_PLANS, residentPlanPrice } from "./pricing.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { companyRenewalRefusal, PLAN_DURATIONS, planMonths } from "./subscriptions.ts";

/**
 * Payment rules (issue 15, docs/decisions.md "Payments (issue 15)"): the state machine, purposes, amounts and
 * currencies. Pure: the services load, these decide, the repositories apply.
 */

/**
 * pending -> confirming (crypto: confirmations below the required count) -> confirmed (provider verdict, chain, or
 * administrator) | failed (provider verdict) | expired (the sweep, past expires_at). confirmed, failed and expired
 * are final.
 */
const MOVES: Record<PaymentStatus, readonly PaymentStatus[]> = {
  pending: ["confirming", "confirmed", "failed", "expired"],
  confirming: ["confirming", "confirmed", "failed", "expired"],
  confirmed: [],
  failed: [],
  expired: [],
};

export const OPEN_STATUSES: readonly PaymentStatus[] = ["pending", "confirming"];

export function isOpen(status: PaymentStatus): boolean {
  return OPEN_STATUSES.includes(status);
}

export function moveRefusal(from: PaymentStatus, to: PaymentStatus): Refusal<"InvalidState"> | null {
  if (MOVES[from].includes(to)) return null;
  return refuse("InvalidState", `a ${from} payment cannot become ${to}`, { status: from });
}

/** Minutes a started payment stays open before the sweep expires it, by rail. */
export const PAYMENT_TTL_MINUTES = {
  crypto: 60,
  mobilepay: 30,
  cardpsp: 30,
  bank_transfer: 7 * 24 * 60,
  auto_topup: 24 * 60,
} as const;

export function expiresAt(now: Date, rail: keyof typeof PAYMENT_TTL_MINUTES): Date {
  return new Date(now.getTime() + PAYMENT_TTL_MINUTES[rail] * 60_000);
}

export interface ConfirmablePayment {
  status: PaymentStatus;
  user_id: string;
  expires_at: Date;
}

/**
 * An administrator's confirmation: only an open payment before its expiry, and never by the payer (an
 * administrator who made the payment cannot confirm it).
 */
export function adminConfirmRefusal(
  payment: ConfirmablePayment,
  adminUserId: string,
  now: Date,
): Refusal<"InvalidState" | "Expired" | "AdminOnly"> | null {
  if (payment.user_id === adminUserId) return refuse("AdminOnly", "the payer cannot confirm their own payment");
  if (payment.status === "expired" || (isOpen(payment.status) && payment.expires_at.getTime() <= now.getTime())) {
    return refuse("Expired", "the payment expired", { expires_at: payment.expires_at.toISOString() });
  }
  return moveRefusal(payment.status, "confirmed");
}

/** Purposes a payment may carry; `credit_top_up` (initiate_topup's spelling) is stored as `credit_topup`. */
export const STORED_PURPOSES = [
  "resident_subscription",
  "company_registration",
  "company_subscription",
  "credit_topup",
  "invoice_payment",
] as const;
export type StoredPurpose = (typeof STORED_PURPOSES)[number];

export function storedPurpose(raw: string): StoredPurpose | Refusal<"InvalidInput"> {
  if (TOP_UP_PURPOSES.includes(raw)) return "credit_topup";
  const known = STORED_PURPOSES.find((p) => p === raw);
  return (
    known ?? refuse("InvalidInput", "unknown payment_purpose", { field: "payment_purpose", known: STORED_PURPOSES })
  );
}

/** Reading a row: both spellings are a top-up. */
export function isTopUp(purpose: string): boolean {
  return TOP_UP_PURPOSES.includes(purpose);
}

/** Currencies a payment may be made in: the ISO 4217 codes the sandbox FX and chain price. */
export const PAYMENT_CURRENCIES: readonly string[] = ["AED", "CHF", "EUR", "GBP", "KES", "TZS", "USD"];

export function paymentCurrency(currency: string): string | Refusal<"InvalidInput"> {
  if (PAYMENT_CURRENCIES.includes(currency)) return currency;
  return refuse("InvalidInput", "unknown currency", { field: "currency", known: PAYMENT_CURRENCIES });
}

/** A payment amount as cents: positive, at most two decimals. */
export function paymentAmount(amount: number): Cents | Refusal<"InvalidAmount"> {
  if (!isValidAmount(amount))
    return refuse("InvalidAmount", "amount must be positive with at most two decimals", { amount });
  return toCents(amount);
}

/** A credit top-up: USD within the price list's bounds. */
export function topUpAmount(amount: number): Cents | Refusal<"InvalidAmount"> {
  const cents = paymentAmount(amount);
  if (typeof cents !== "number") return cents;
  if (amount < CREDIT_PRICING.topup_min_amount || amount > CREDIT_PRICING.topup_max_amount) {
    return refuse("InvalidAmount", "amount is outside the top-up bounds", {
      min: CREDIT_PRICING.topup_min_amount,
      max: CREDIT_PRICING.topup_max_amount,
    });
  }
  return cents;
}

/** A company paid for: its status (whether the purpose can apply) and its fees (what the period costs). */
export interface PricedCompany {
  status: CompanyStatus;
  fees: CompanyFees;
}

const COMPANY_PLAN_CODES: readonly string[] = PLAN_DURATIONS.flatMap((d) =>
  d.company ? [d.renewal, d.company] : [d.renewal],
);

/**
 * The server's price (USD cents) of a priced purpose, or why the purpose cannot apply: a resident plan's price; a
 * company subscription by the one price rule (companySubscriptionPrice, as a renewal: the company's fee snapshot and
 * priced holders, the plan's months, renewal or registration plan codes alike) for a company that can renew; a
 * company registration never applies to a company that exists (InvalidState: registration pays for a formation
 * draft). Null for unpriced purposes (top-ups, whose bounds are checked apart).
 */
export function purposePrice(
  purpose: StoredPurpose,
  plan: string | null,
  company: PricedCompany | null,
): Cents | Refusal<"InvalidInput" | "InvalidState"> | null {
  if (purpose === "resident_subscription") {
    const p = RESIDENT_PLANS.find((r) => r.plan === plan);
    if (!p) return refuse("InvalidInput", "unknown subscription_plan", { field: "subscription_plan" });
    return toCents(residentPlanPrice(p).amount);
  }
  if (purpose === "company_registration" || purpose === "company_subscription") {
    const months = plan !== null && COMPANY_PLAN_CODES.includes(plan) ? planMonths(plan) : null;
    if (months === null) {
      return refuse("InvalidInput", "unknown subscription_plan", {
        field: "subscription_plan",
        known: COMPANY_PLAN_CODES,
      });
    }
    if (company === null) return refuse("InvalidInput", "a company purpose needs entity_type company");
    if (purpose === "company_registration") {
      return refuse("InvalidState", "the company is already registered: a registration pays for a formation draft", {
        status: company.status,
      });
    }
    const denied = companyRenewalRefusal(company.status);
    if (denied) return denied;
    return toCents(companySubscriptionPrice(company.fees, months).amount);
  }
  return null;
}

/** What a provider's reported status moves an open payment to (null: nothing yet). */
export function verdictStatus(providerStatus: string): "confirmed" | "failed" | "expired" | null {
  switch (providerStatus) {
    case "succeeded":
      return "confirmed";
    case "failed":
    case "cancelled":
      return "failed";
    case "expired":
      return "expired";
    default:
      return null;
  }
}

/** The chain's count: confirming below the required count, confirmed at it, nothing without a transaction. */
export function chainStatus(confirmations: number, required: number): PaymentStatus | null {
  if (confirmations <= 0) return null;
  return confirmations >= required ? "confirmed" : "confirming";
}
