import type { PaymentServiceHandlers } from "../../../generated/handlers/index.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { fromCents } from "../../domain/money.ts";
import { expiresAt, paymentAmount, paymentCurrency, purposePrice } from "../../domain/payments.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { subscriptionPaymentRefusal } from "../../domain/resident-status.ts";
import { paymentProviders } from "../../integrations/payments/index.ts";
import { insertPayment } from "../../repos/payments.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { paymentError, providerFailure, refused } from "./common.ts";
import { payableEntity } from "./payable.ts";

type Handlers = PaymentServiceHandlers<RpcContext>;

const ASSETS = { bitcoin: "BTC", ethereum: "ETH" } as const;

/**
 * A pending crypto payment for the caller's resident with a deposit address of its own. The purpose is the
 * resident's subscription, for the plan it chose: the amount must be that plan's price in USD. The chain watcher (sweep.ts) counts confirmations and confirms it;
 * nothing moves until then.
 */
export const getPaymentWallet: Handlers["getPaymentWallet"] = async (ctx, params) => {
  const caller = requireCaller(ctx);
  if (params.payment_type !== "bitcoin" && params.payment_type !== "ethereum") {
    throw paymentError("InvalidInput", "payment_type must be bitcoin or ethereum", { field: "payment_type" });
  }
  const cents = paymentAmount(params.amount);
  if (isRefusal(cents)) throw refused(cents);
  const currency = paymentCurrency(params.currency);
  if (isRefusal(currency)) throw refused(currency);
  const entity = await payableEntity(ctx, "resident", params.resident_id);
  if (entity.type !== "resident") throw paymentError.notFound("resident");
  const notPayable = subscriptionPaymentRefusal(entity.resident, ctx.now());
  if (notPayable) throw refused(notPayable);
  const price = purposePrice("resident_subscription", entity.resident.subscription_plan, null);
  if (isRefusal(price)) throw refused(price);
  if (currency !== "USD" || price !== cents) {
    throw paymentError("InvalidAmount", "the amount differs from the resident plan's price (USD)", {
      price: price === null ? null : price / 100,
      currency: "USD",
    });
  }
  const now = ctx.now();
  const sid = uuidv7(now);
  const asset = ASSETS[params.payment_type];
  const deposit = await paymentProviders(ctx.config)
    .chain.openDeposit({ paymentId: sid, amountCents: cents, currency, description: "Residency", now, asset })
    .catch((err: unknown) => {
      throw providerFailure(err);
    });
  const row = await insertPayment(
    ctx.em,
    {
      sid,
      user_id: caller.userId,
      entity_id: entity.resident.resident_id,
      entity_type: "resident",
      payment_type: params.payment_type,
      amount: fromCents(cents),
      currency,
      crypto_amount: deposit.cryptoAmount,
      exchange_rate: deposit.exchangeRate,
      wallet_address: deposit.address,
      sender_address: null,
      transaction_hash: null,
      confirmation_count: 0,
      external_id: deposit.address,
      mobilepay_order_id: null,
      payment_purpose: "resident_subscription",
      invoice_id: null,
      subscription_plan: entity.resident.subscription_plan,
      auto_renewal: entity.resident.auto_renewal,
      auto_topup: false,
      status: "pending",
      expires_at: expiresAt(now, "crypto"),
      confirmed_at: null,
    },
    now,
  );
  return {
    payment_id: row.sid,
    resident_id: row.entity_id,
    payment_type: params.payment_type,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    crypto_currency: asset,
    crypto_amount: deposit.cryptoAmount,
    exchange_rate: deposit.exchangeRate,
    wallet_address: deposit.address,
    payment_uri: deposit.uri,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
};
