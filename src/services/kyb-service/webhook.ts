import type { KybServiceHandlers } from "../../../generated/handlers/index.ts";
import { recordsVerdict } from "../../domain/kyb.ts";
import * as registrations from "../../repos/external-companies.ts";
import { recordWebhookEvent } from "../../repos/webhook-events.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { webhookDelivery } from "../../rpc/webhook-delivery.ts";

const _webhookError = errorsFor("KybService", "WebhookError");
const WEBHOOK_PROVIDER = "kyb";

/**
 * The KYB provider's signed verdict (the dispatcher checked the HMAC and its 5-minute window). It records
 * kyb_provider_status and kyb_checked_at on the registration with that kyb_scan_ref and never decides. A repeated
 * event id with the same body is acknowledged without a second effect; with another body it is a replay.
 */
export const handleKybWebhook: KybServiceHandlers<RpcContext>["handleKybWebhook"] = async (ctx, { data }) => {
  const { duplicate, payloadHash } = await webhookDelivery(ctx, WEBHOOK_PROVIDER, data.event_id);
  const row = await registrations.findRegistrationByScanRef(ctx.em, data.scan_ref);
  if (duplicate) {
    return {
      received: true,
      event_id: data.event_id,
      duplicate: true,
      matched: row !== null,
      status: row?.kyb_provider_status ?? null,
    };
  }
  const now = ctx.now();
  let status: string | null = row?.kyb_provider_status ?? null;
  if (row) {
    const checkedAt = new Date(data.checked_at);
    if (
      recordsVerdict(row.kyb_checked_at, checkedAt) &&
      (await registrations.recordVerdict(ctx.em, row.sid, data.verdict, checkedAt, now)) > 0
    ) {
      status = data.verdict;
    }
  }
  await recordWebhookEvent(ctx.em, WEBHOOK_PROVIDER, data.event_id, payloadHash, now);
  return { received: true, event_id: data.event_id, duplicate: false, matched: row !== null, status };
};
