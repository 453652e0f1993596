import type { Begin2FaRecoveryResult, Poll2FaRecoveryResult, WebhookResult } from "../../../generated/types.ts";
import { limitAddress, limitQuota } from "../../auth/limits.ts";
import { uuidv7 } from "../../domain/ids.ts";
import {
  RECOVERY_TTL_S,
  type RecoveryStatus,
  recoveryTransition,
  visibleRecoveryStatus,
} from "../../domain/mfa-recovery.ts";
import {
  IdentityProviderError,
  type RecoveryVerdict,
  recoveryIdentityProvider,
} from "../../integrations/identity/index.ts";
import { writeAudit } from "../../repos/audit-log.ts";
import { verifiedResidentOf } from "../../repos/digital-residents.ts";
import type { RecoveryWithIdentity } from "../../repos/mfa-recovery-sessions.ts";
import * as recoveries from "../../repos/mfa-recovery-sessions.ts";
import { recordWebhookEvent } from "../../repos/webhook-events.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";
import { webhookDelivery } from "../../rpc/webhook-delivery.ts";
import { challengeUsed, claimChallenge, liveChallenge } from "./mfa-challenge.ts";
import { turnTotpOff } from "./totp-enrolment.ts";

const WEBHOOK_PROVIDER = "identity_recovery";

/** Anonymous, gated by the password-proven challenge (spent here), limited per address and per account. */
export async function beginRecovery(ctx: RpcContext, mfaChallenge: string): Promise<Begin2FaRecoveryResult> {
  await limitAddress(ctx, "AuthError");
  const challenge = await liveChallenge(ctx, mfaChallenge);
  const { recoveriesPerAccountPerDay } = ctx.config.rateLimits;
  await limitQuota(ctx, "AuthError", `recovery:${challenge.user_id}`, recoveriesPerAccountPerDay, 24 * 3600);
  // The resident whose KYC identity a recovery re-verifies: the user's own, with a provider reference.
  const resident = await verifiedResidentOf(ctx.em, challenge.user_id);
  if (!resident) {
    throw RpcError.app("AuthError", "InvalidState", "no identity-verified resident to recover with");
  }
  const now = ctx.now();
  let session: { scanRef: string; url: string };
  try {
    session = await recoveryIdentityProvider(ctx.config).startReverification({
      userId: challenge.user_id,
      residentId: resident.resident_id,
      kycProviderId: resident.kyc_provider_id,
      now,
    });
  } catch (err) {
    if (err instanceof IdentityProviderError) {
      throw RpcError.app("AuthError", "ProviderUnavailable", "the identity provider is unavailable; try again later");
    }
    throw err;
  }
  if (!(await claimChallenge(ctx, challenge.sid))) throw challengeUsed();
  // One recovery at a time: an earlier pending one is superseded.
  await recoveries.expirePendingRecoveries(ctx.em, challenge.user_id, now);
  const sid = uuidv7(now);
  const expiresAt = new Date(now.getTime() + RECOVERY_TTL_S * 1000);
  recoveries.insertRecovery(ctx.em, {
    sid,
    user_id: challenge.user_id,
    resident_id: resident.resident_id,
    kycprovider_scan_ref: session.scanRef,
    status: "pending",
    expires_at: expiresAt,
    created_at: now,
    updated_at: now,
  });
  return { recovery_id: sid, status: "pending", kyc_url: session.url, expires_at: expiresAt.toISOString() };
}

/** Opaque: an unknown id answers like an expired session. */
export async function pollRecovery(ctx: RpcContext, recoveryId: string): Promise<Poll2FaRecoveryResult> {
  await limitAddress(ctx, "AuthError", "poll");
  const row = await recoveries.findRecovery(ctx.em, recoveryId);
  if (!row) return { recovery_id: recoveryId, status: "expired", expires_at: null };
  const expired = row.expires_at.getTime() <= ctx.now().getTime();
  return {
    recovery_id: recoveryId,
    status: visibleRecoveryStatus(row.status, expired),
    expires_at: row.expires_at.toISOString(),
  };
}

/**
 * The provider's signed verdict (the dispatcher checked the signature). A repeated event id with the same body is
 * acknowledged without a second effect; with another body it is a replay. Effects are guarded by the session's
 * status, so concurrent deliveries act once.
 */
export async function handleRecoveryWebhook(ctx: RpcContext, data: RecoveryVerdict): Promise<WebhookResult> {
  const { duplicate, payloadHash } = await webhookDelivery(ctx, WEBHOOK_PROVIDER, data.event_id);
  const session = await recoveries.findRecoveryByScanRef(ctx.em, data.scan_ref);
  if (duplicate) {
    return {
      received: true,
      event_id: data.event_id,
      duplicate: true,
      matched: Boolean(session),
      status: session?.status ?? null,
    };
  }
  const now = ctx.now();
  let status: RecoveryStatus | null = session?.status ?? null;
  if (session) {
    const next = recoveryTransition({
      status: session.status,
      expired: session.expires_at.getTime() <= now.getTime(),
      verdict: data.verdict,
      matchedIdentity: data.matched_kyc_provider_id ?? null,
      knownIdentity: session.kyc_provider_id,
    });
    if (next !== null) {
      if (await recoveries.movePendingRecovery(ctx.em, session.sid, next, now)) {
        status = next;
        if (next === "approved") await approve(ctx, session, now);
      }
    }
  }
  await recordWebhookEvent(ctx.em, WEBHOOK_PROVIDER, data.event_id, payloadHash, now);
  return { received: true, event_id: data.event_id, duplicate: false, matched: Boolean(session), status };
}

/** The identity is proven again: TOTP goes off so the user can sign in with the password and enrol anew. */
async function approve(ctx: RpcContext, session: RecoveryWithIdentity, now: Date): Promise<void> {
  await turnTotpOff(ctx, session.user_id, now);
  await writeAudit(
    ctx.em,
    {
      subjectId: session.user_id,
      action: "other",
      targetRef: session.user_id,
      targetType: "user",
      allowed: true,
      context: { event: "2fa_recovery_approved", recovery_id: session.sid },
    },
    now,
  );
}
