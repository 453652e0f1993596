import { sha256Hex } from "../auth/tokens.ts";
import { findWebhookEvent } from "../repos/webhook-events.ts";
import type { RpcContext } from "./context.ts";
import { RpcError } from "./errors.ts";

/**
 * What one delivery of a signed webhook is (API.md "Webhooks"): new, or a duplicate of an event already handled
 * (same provider and event id, same body: acknowledged with no second effect). The same id with another body is a
 * replay, refused `WebhookError` `Replayed`. `payloadHash` is what the handler records with the event.
 */
export async function webhookDelivery(
  ctx: Pick<RpcContext, "em" | "request">,
  provider: string,
  eventId: string,
): Promise<{ duplicate: boolean; payloadHash: string }> {
  const payloadHash = sha256Hex(ctx.request.rawBody);
  const seen = await findWebhookEvent(ctx.em, provider, eventId);
  if (seen && seen.payload_hash !== payloadHash) {
    throw RpcError.app("WebhookError", "Replayed", "this event id was already delivered with another body");
  }
  return { duplicate: seen !== null, payloadHash };
}
