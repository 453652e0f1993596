import type { PaymentServiceHandlers } from "../../../generated/handlers/index.ts";
import { toCents } from "../../domain/money.ts";
import { isOpen, verdictStatus } from "../../domain/payments.ts";
import { saveCard } from "../../repos/credit-auto-topup.ts";
import { findByProviderOrder, findPayment } from "../../repos/payments.ts";
import { recordWebhookEvent } from "../../repos/webhook-events.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { webhookDelivery } from "../../rpc/webhook-delivery.ts";
import { webhookError } from "./common.ts";
import { closeOpenPayment, confirmOpenPayment } from "./confirm.ts";

type Handlers = PaymentServiceHandlers<RpcContext>;
const WEBHOOK_PROVIDER = "payments";

/**
 * The mobile-money or card provider's signed verdict (the dispatcher checked the HMAC and its 5-minute window).
 * `succeeded` confirms an open payment and applies its purpose in this transaction; `failed`/`cancelled` fail it;
 * `expired` expires it; `pending` changes nothing. The event is recorded with a hash of its body: the same event
 * again is acknowledged as a duplicate with no second effect; the same id with another body is Replayed.
 */
export const handlePaymentWebhook: Handlers["handlePaymentWebhook"] = async (ctx, { data }) => {
  const { duplicate, payloadHash } = await webhookDelivery(ctx, WEBHOOK_PROVIDER, data.event_id);
  const payment = await findByProviderOrder(ctx.em, data.order_id);
  if (duplicate) {
    return {
      received: true,
      event_id: data.event_id,
      duplicate: true,
      matched: payment !== null,
      status: payment?.status ?? null,
    };
  }
  const now = ctx.now();
  if (payment) {
    if (toCents(data.amount) !== toCents(payment.amount) || data.currency !== payment.currency) {
      throw webhookError("InvalidInput", "the amount or currency differs from the payment's", {
        amount: payment.amount,
        currency: payment.currency,
      });
    }
  }
  let status = payment?.status ?? null;
  const target = verdictStatus(data.status);
  if (payment && target && isOpen(payment.status)) {
    if (target === "confirmed") {
      const confirmation = await confirmOpenPayment(ctx, payment);
      // Lost to a concurrent decision (an administrator, another delivery): report what it decided.
      status = confirmation ? "confirmed" : ((await findPayment(ctx.em, payment.sid))?.status ?? status);
      if (confirmation && payment.payment_type === "cardpsp" && data.payment_method_id) {
        await saveCard(ctx.em, payment.user_id, data.customer_id ?? null, data.payment_method_id, now);
      }
    } else if (await closeOpenPayment(ctx, payment, target)) {
      status = target;
    }
  }
  await recordWebhookEvent(ctx.em, WEBHOOK_PROVIDER, data.event_id, payloadHash, now);
  return { received: true, event_id: data.event_id, duplicate: false, matched: payment !== null, status };
};
