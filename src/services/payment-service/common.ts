import type { PaymentRow } from "../../../generated/entities.ts";
import type { MobilePayResult, PaymentConfirmResult } from "../../../generated/types.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { PaymentProviderError } from "../../integrations/payments/index.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

export const paymentError = errorsFor("PaymentService", "PaymentError");
export const webhookError = errorsFor("PaymentService", "WebhookError");

type PaymentVariant = Parameters<typeof paymentError>[0];

/** A payment rule's refusal as the declared PaymentError variant. */
export function refused(r: Refusal<PaymentVariant>): Error {
  return paymentError(r.refusal, r.message, r.details);
}

/** A provider failure as ProviderUnavailable / ProviderRejected; anything else is rethrown. */
export function providerFailure(err: unknown): Error {
  if (err instanceof PaymentProviderError) {
    return paymentError(err.kind === "unavailable" ? "ProviderUnavailable" : "ProviderRejected", err.message);
  }
  return err instanceof Error ? err : new Error(String(err));
}

export function toMobilePayResult(row: PaymentRow, checkoutUrl: string | null): MobilePayResult {
  return {
    payment_id: row.sid,
    mobilepay_order_id: row.mobilepay_order_id ?? row.external_id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    payment_purpose: row.payment_purpose,
    checkout_url: checkoutUrl,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}

export function toConfirmResult(
  row: PaymentRow,
  fulfilled: boolean,
  creditTransactionId: string | null,
): PaymentConfirmResult {
  return {
    payment_id: row.sid,
    status: row.status,
    payment_type: row.payment_type,
    amount: row.amount,
    currency: row.currency,
    payment_purpose: row.payment_purpose,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    sender_address: row.sender_address,
    transaction_hash: row.transaction_hash,
    confirmation_count: row.confirmation_count,
    confirmed_at: row.confirmed_at ? row.confirmed_at.toISOString() : null,
    fulfilled,
    credit_transaction_id: creditTransactionId,
  };
}

/** The invoice payment method a payment rail settles as (PaymentMethod). */
export function invoiceMethodOf(row: PaymentRow): "card" | "mobilepay" | "crypto" | "bank_transfer" {
  switch (row.payment_type) {
    case "cardpsp":
      return "card";
    case "mobilepay":
      return "mobilepay";
    case "bank_transfer":
      return "bank_transfer";
    default:
      return "crypto";
  }
}
