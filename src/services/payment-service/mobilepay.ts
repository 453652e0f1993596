import type { PaymentServiceHandlers } from "../../../generated/handlers/index.ts";
import type { EntityType } from "../../../generated/types.ts";
import { registeredCompanyFees } from "../../domain/company-pricing.ts";
import type { Cents } from "../../domain/money.ts";
import {
  paymentAmount,
  paymentCurrency,
  purposePrice,
  type StoredPurpose,
  storedPurpose,
  topUpAmount,
} from "../../domain/payments.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { subscriptionPaymentRefusal } from "../../domain/resident-status.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { paymentError, providerFailure, refused, toMobilePayResult } from "./common.ts";
import { payableEntity } from "./payable.ts";
import { startProviderPayment } from "./start.ts";

type Handlers = PaymentServiceHandlers<RpcContext>;

export interface PurposePaymentParams {
  entity_id: string;
  entity_type: EntityType;
  amount: number;
  currency: string;
  payment_purpose: string;
  subscription_plan?: string | null | undefined;
}

/**
 * The checks of a payment for a purpose (initiate_mobilepay, initiate_bank_transfer): a known purpose (not an
 * invoice: that has its own start), a valid amount and currency, an entity the caller may pay for, and for priced
 * purposes the server's price in USD; a top-up stays within the top-up bounds (USD).
 */
export async function checkPurposePayment(
  ctx: RpcContext,
  params: PurposePaymentParams,
): Promise<{ purpose: StoredPurpose; cents: Cents; currency: string }> {
  const purpose = storedPurpose(params.payment_purpose);
  if (isRefusal(purpose)) throw refused(purpose);
  if (purpose === "invoice_payment") {
    throw paymentError("InvalidInput", "an invoice is paid with paymentservice.initiate_invoice_payment");
  }
  const cents = purpose === "credit_topup" ? topUpAmount(params.amount) : paymentAmount(params.amount);
  if (isRefusal(cents)) throw refused(cents);
  const currency = paymentCurrency(params.currency);
  if (isRefusal(currency)) throw refused(currency);
  if (purpose === "resident_subscription" && params.entity_type !== "resident") {
    throw paymentError("InvalidInput", "a resident subscription is paid for a resident", { field: "entity_type" });
  }
  const entity = await payableEntity(ctx, params.entity_type, params.entity_id);
  const notPayable =
    purpose === "resident_subscription" && entity.type === "resident"
      ? subscriptionPaymentRefusal(entity.resident, ctx.now())
      : null;
  if (notPayable) throw refused(notPayable);
  const company =
    entity.type === "company" ? { status: entity.company.status, fees: registeredCompanyFees(entity.company) } : null;
  const price = purposePrice(purpose, params.subscription_plan ?? null, company);
  if (isRefusal(price)) throw refused(price);
  if ((price !== null || purpose === "credit_topup") && currency !== "USD") {
    throw paymentError("InvalidAmount", "this purpose is paid in USD", { currency: "USD" });
  }
  if (price !== null && price !== cents) {
    throw paymentError("InvalidAmount", "the amount differs from the server's price", { price: price / 100 });
  }
  return { purpose, cents, currency };
}

/** A mobile-money payment for a resident or company the caller may pay for. Nothing is written on refusal. */
export const initiateMobilepay: Handlers["initiateMobilepay"] = async (ctx, params) => {
  const caller = requireCaller(ctx);
  const { purpose, cents, currency } = await checkPurposePayment(ctx, params);
  try {
    const { row, checkoutUrl } = await startProviderPayment(ctx, {
      rail: "mobilepay",
      userId: caller.userId,
      entityType: params.entity_type,
      entityId: params.entity_id,
      cents,
      currency,
      description: params.description,
      purpose,
      plan: params.subscription_plan ?? null,
      invoiceId: null,
    });
    return toMobilePayResult(row, checkoutUrl);
  } catch (err) {
    throw providerFailure(err);
  }
};
