import type { MobilePayWebhookData, ReceivingWebhookData } from "../../../generated/types.ts";
import { signWebhook } from "../../auth/webhook-signature.ts";

/**
 * What the sandbox providers post back (API.md "Webhooks": HMAC-SHA256 over `<t>.<raw body>` with the webhook
 * secret): a JSON-RPC call of the payment service's webhook method. Tests and demos use these to play the
 * provider's part.
 */
function signed(secret: string, method: string, id: string, data: unknown, now: Date) {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: { data } });
  return { body, headers: { "x-webhook-signature": signWebhook(secret, body, Math.floor(now.getTime() / 1000)) } };
}

export function sandboxPaymentCallback(secret: string, data: MobilePayWebhookData, now: Date) {
  return signed(secret, "paymentservice.handle_payment_webhook", data.event_id, data, now);
}

export function sandboxReceivingCallback(secret: string, data: ReceivingWebhookData, now: Date) {
  return signed(secret, "paymentservice.handle_receiving_webhook", data.event_id, data, now);
}
