import type { PaymentServiceHandlers } from "../../../generated/handlers/index.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { fromCents } from "../../domain/money.ts";
import { expiresAt } from "../../domain/payments.ts";
import { paymentProviders } from "../../integrations/payments/index.ts";
import { insertPayment } from "../../repos/payments.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { checkPurposePayment } from "./mobilepay.ts";

type Handlers = PaymentServiceHandlers<RpcContext>;

/**
 * A bank-transfer payment: instructions issued (the reference is stored as external_id); an administrator confirms
 * it with confirm_payment when the money arrived.
 */
export const initiateBankTransfer: Handlers["initiateBankTransfer"] = async (ctx, params) => {
  const caller = requireCaller(ctx);
  const { purpose, cents, currency } = await checkPurposePayment(ctx, params);
  const now = ctx.now();
  const sid = uuidv7(now);
  const instructions = paymentProviders(ctx.config).bank.instructions({
    paymentId: sid,
    amountCents: cents,
    currency,
    description: purpose,
    now,
  });
  const row = await insertPayment(
    ctx.em,
    {
      sid,
      user_id: caller.userId,
      entity_id: params.entity_id,
      entity_type: params.entity_type,
      payment_type: "bank_transfer",
      amount: fromCents(cents),
      currency,
      crypto_amount: null,
      exchange_rate: null,
      wallet_address: null,
      sender_address: null,
      transaction_hash: null,
      confirmation_count: null,
      external_id: instructions.reference,
      mobilepay_order_id: null,
      payment_purpose: purpose,
      invoice_id: null,
      subscription_plan: params.subscription_plan ?? null,
      auto_renewal: false,
      auto_topup: false,
      status: "pending",
      expires_at: expiresAt(now, "bank_transfer"),
      confirmed_at: null,
    },
    now,
  );
  return {
    payment_id: row.sid,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    payment_purpose: row.payment_purpose,
    beneficiary: instructions.beneficiary,
    iban: instructions.iban,
    bic: instructions.bic,
    reference: instructions.reference,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
};
