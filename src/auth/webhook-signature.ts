import { createHmac } from "node:crypto";
import { RpcError } from "../rpc/errors.ts";
import { safeEqual } from "./tokens.ts";

export const SIGNATURE_HEADER = "x-webhook-signature";
export const WEBHOOK_TOLERANCE_S = 5 * 60;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (API.md "Webhooks"). */
export function signWebhook(secret: string, rawBody: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmacSha256Hex(secret, `${unixSeconds}.${rawBody}`)}`;
}

/** The full 32-byte HMAC-SHA256 tag in lowercase hex (a truncated tag never verifies). */
export function hmacSha256Hex(key: string | Uint8Array, message: string | Uint8Array): string {
  return createHmac("sha256", key).update(message).digest("hex");
}

/** Refuses a missing or bad signature, or one more than five minutes off the server clock. */
export function verifyWebhookSignature(secret: string, header: string | undefined, rawBody: string, now: Date): void {
  const parts = Object.fromEntries((header ?? "").split(",").map((p) => p.trim().split("=", 2) as [string, string]));
  const t = Number(parts["t"]);
  const v1 = parts["v1"];
  if (!Number.isInteger(t) || !v1)
    throw RpcError.app("WebhookError", "InvalidWebhookSignature", "missing or malformed webhook signature");
  if (Math.abs(now.getTime() / 1000 - t) > WEBHOOK_TOLERANCE_S) {
    throw RpcError.app(
      "WebhookError",
      "InvalidWebhookSignature",
      "webhook signature timestamp outside the 5-minute window",
    );
  }
  const expected = signWebhook(secret, rawBody, t).split("v1=")[1] ?? "";
  if (!safeEqual(expected, v1)) throw RpcError.app("WebhookError", "InvalidWebhookSignature", "bad webhook signature");
}
