import type { KycSessionRow } from "../../../generated/entities.ts";
import type { KycServiceHandlers } from "../../../generated/handlers/index.ts";
import type { KycProviderWebhookData, KycStatus, WebhookResult } from "../../../generated/types.ts";
import {
  capturesPersonalData,
  kycExpired,
  OPEN_KYC_STATUSES,
  personalDataRefusal,
  verdictTransition,
  visibleKycStatus,
} from "../../domain/kyc.ts";
import { writeAudit } from "../../repos/audit-log.ts";
import { findKycSessionByScanRef, moveKycSession } from "../../repos/kyc-sessions.ts";
import { recordWebhookEvent } from "../../repos/webhook-events.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { webhookDelivery } from "../../rpc/webhook-delivery.ts";
import { recordCompletion, webhookError } from "./common.ts";
import { capturePersonalData } from "./personal-data.ts";

type Handlers = KycServiceHandlers<RpcContext>;

/** WebhookEvent.provider of the KYC callback (the recovery callback has its own). */
const WEBHOOK_PROVIDER = "identity_kyc";

/** What a verdict writes on the session it moves to `next`. */
function verdictChanges(
  next: KycStatus,
  data: KycProviderWebhookData,
  session: KycSessionRow,
  now: Date,
): Partial<KycSessionRow> & { status: KycStatus; updated_at: Date } {
  const base = { status: next, provider_verdict: data.verdict, updated_at: now };
  if (next !== "completed" && next !== "needs_review" && next !== "failed") return base;
  return {
    ...base,
    identity_verified: data.identity_verified,
    document_verified: data.document_verified,
    liveness_verified: data.liveness_verified,
    verification_level: data.verification_level ?? session.verification_level,
    provider_reason: data.reason ?? null,
    ...(next === "failed" ? {} : { kyc_provider_id: data.kyc_provider_id ?? data.scan_ref }),
    ...(next === "completed" ? { verified_at: now } : {}),
  };
}

/**
 * The provider's verdict completes a KYC as an administrator's approval does, and is audited as one: verify_kyc
 * (seed 001 Events 3), the resident's owner as subject (issue 29 item 15).
 */
async function completedByProvider(ctx: RpcContext, session: KycSessionRow, now: Date): Promise<void> {
  const owner = await recordCompletion(ctx, session, now);
  if (owner === null) return;
  const context = { method: "kycservice.handle_kycprovider_webhook", by: "provider", resident_id: session.resident_id };
  await writeAudit(
    ctx.em,
    {
      subjectId: owner,
      action: "verify_kyc",
      targetRef: session.sid,
      targetType: "kyc_session",
      allowed: true,
      context,
    },
    now,
  );
}

/**
 * The provider's signed verdict (the dispatcher checked the signature and its 5-minute window). A repeated event
 * id with the same body is acknowledged without a second effect; with another body it is a replay. Effects are
 * guarded by the session's status (a conditional move), so concurrent deliveries act once.
 */
export const handleKycproviderWebhook: Handlers["handleKycproviderWebhook"] = async (ctx, { data }) => {
  const { duplicate, payloadHash } = await webhookDelivery(ctx, WEBHOOK_PROVIDER, data.event_id);
  const session = await findKycSessionByScanRef(ctx.em, data.scan_ref);
  const now = ctx.now();
  const ack = (duplicate: boolean, status: KycStatus | null): WebhookResult => ({
    received: true,
    event_id: data.event_id,
    duplicate,
    matched: session !== null,
    status,
  });
  if (duplicate) {
    return ack(true, session ? visibleKycStatus(session, now) : null);
  }
  const malformed = personalDataRefusal(data.personal_data);
  if (malformed) throw webhookError("InvalidInput", malformed.message, malformed.details);
  let status: KycStatus | null = session ? visibleKycStatus(session, now) : null;
  if (session) {
    const next = verdictTransition({
      status: session.status,
      expired: kycExpired(session, now),
      verdict: data.verdict,
      manualReview: ctx.config.kyc.manualReview,
    });
    const changes = next === null ? null : verdictChanges(next, data, session, now);
    if (changes && (await moveKycSession(ctx.em, session.sid, OPEN_KYC_STATUSES, changes))) {
      const moved = { ...session, ...changes };
      status = moved.status;
      if (moved.status === "completed") await completedByProvider(ctx, moved, now);
      if (capturesPersonalData(moved.status)) await capturePersonalData(ctx, moved, data.personal_data, now);
    } else if (changes) {
      // A concurrent delivery moved it first: answer what it stored.
      const current = await findKycSessionByScanRef(ctx.em, data.scan_ref);
      status = current ? visibleKycStatus(current, now) : status;
    }
  }
  await recordWebhookEvent(ctx.em, WEBHOOK_PROVIDER, data.event_id, payloadHash, now);
  return ack(false, status);
};
