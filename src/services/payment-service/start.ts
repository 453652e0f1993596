import type { PaymentRow } from "../../../generated/entities.ts";
import type { EntityType } from "../../../generated/types.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { fromCents } from "../../domain/money.ts";
import { expiresAt, type StoredPurpose } from "../../domain/payments.ts";
import { paymentProviders } from "../../integrations/payments/index.ts";
import { insertPayment } from "../../repos/payments.ts";
import type { RpcContext } from "../../rpc/context.ts";

export interface ProviderPaymentStart {
  rail: "mobilepay" | "cardpsp";
  userId: string;
  entityType: EntityType;
  entityId: string;
  cents: number;
  currency: string;
  description: string;
  purpose: StoredPurpose;
  plan: string | null;
  invoiceId: string | null;
}

/**
 * Starts a payment with the mobile-money or card provider and stores it `pending` with the provider's order id
 * (mobile money: mobilepay_order_id and external_id; card: external_id), which the provider's webhook names. A
 * provider failure is thrown as PaymentProviderError before anything is written; the caller maps it.
 */
export async function startProviderPayment(
  ctx: RpcContext,
  p: ProviderPaymentStart,
): Promise<{ row: PaymentRow; checkoutUrl: string | null }> {
  const now = ctx.now();
  const sid = uuidv7(now);
  const providers = paymentProviders(ctx.config);
  const request = { paymentId: sid, amountCents: p.cents, currency: p.currency, description: p.description, now };
  const checkout =
    p.rail === "mobilepay"
      ? await providers.mobileMoney.createOrder(request)
      : await providers.card.createCheckout(request);
  const row = await insertPayment(
    ctx.em,
    {
      sid,
      user_id: p.userId,
      entity_id: p.entityId,
      entity_type: p.entityType,
      payment_type: p.rail,
      amount: fromCents(p.cents),
      currency: p.currency,
      crypto_amount: null,
      exchange_rate: null,
      wallet_address: null,
      sender_address: null,
      transaction_hash: null,
      confirmation_count: null,
      external_id: checkout.orderId,
      mobilepay_order_id: p.rail === "mobilepay" ? checkout.orderId : null,
      payment_purpose: p.purpose,
      invoice_id: p.invoiceId,
      subscription_plan: p.plan,
      auto_renewal: false,
      auto_topup: false,
      status: "pending",
      expires_at: expiresAt(now, p.rail),
      confirmed_at: null,
    },
    now,
  );
  return { row, checkoutUrl: checkout.checkoutUrl };
}
