import type { Begin2FaRecoveryResult, Poll2FaRecoveryResult, WebhookResult } from "../../generated/types.ts";
import { affected } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import {
  RECOVERY_TTL_S,
  type RecoveryStatus,
  recoveryTransition,
  visibleRecoveryStatus,
} from "../domain/mfa-recovery.ts";
import {
  IdentityProviderError,
  type RecoveryVerdict,
  recoveryIdentityProvider,
} from "../integrations/identity/index.ts";
import { writeAudit } from "../repos/audit-log.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { limitAddress, limitQuota } from "./limits.ts";
import { claimChallenge, liveChallenge } from "./mfa-challenge.ts";
import { sha256Hex } from "./tokens.ts";
import { turnTotpOff } from "./totp-enrolment.ts";

const WEBHOOK_PROVIDER = "identity_recovery";

/** The resident whose KYC identity a recovery re-verifies: the user's own, with a provider reference. */
async function verifiedResident(ctx: RpcContext, userId: string) {
  const rows = await ctx.em.execute<{ resident_id: string; kyc_provider_id: string }[]>(
    `select resident_id, kyc_provider_id from "digital_resident"
      where user_id = ? and partner_id is null and kyc_provider_id is not null and kyc_provider_id <> ''
      order by sid limit 1`,
    [userId],
  );
  return rows[0] ?? null;
}

/** Anonymous, gated by the password-proven challenge (spent here), limited per address and per account. */
export async function beginRecovery(ctx: RpcContext, mfaChallenge: string): Promise<Begin2FaRecoveryResult> {
  await limitAddress(ctx, "AuthError");
  const challenge = await liveChallenge(ctx, mfaChallenge);
  const { recoveriesPerAccountPerDay } = ctx.config.rateLimits;
  await limitQuota(ctx, "AuthError", `recovery:${challenge.user_id}`, recoveriesPerAccountPerDay, 24 * 3600);
  const resident = await verifiedResident(ctx, challenge.user_id);
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
  if (!(await claimChallenge(ctx, challenge.sid))) {
    throw RpcError.app("AuthError", "AlreadyUsed", "this MFA challenge was already used; sign in again");
  }
  // One recovery at a time: an earlier pending one is superseded.
  await ctx.em.execute(
    `update "mfa_recovery_session" set status = 'expired', updated_at = ? where user_id = ? and status = 'pending'`,
    [now, challenge.user_id],
  );
  const sid = uuidv7(now);
  const expiresAt = new Date(now.getTime() + RECOVERY_TTL_S * 1000);
  ctx.em.create("MfaRecoverySession", {
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
  const rows = await ctx.em.execute<{ status: RecoveryStatus; expires_at: Date }[]>(
    `select status, expires_at from "mfa_recovery_session" where sid = ? limit 1`,
    [recoveryId],
  );
  const row = rows[0];
  if (!row) return { recovery_id: recoveryId, status: "expired", expires_at: null };
  const expiresAt = new Date(row.expires_at);
  const expired = expiresAt.getTime() <= ctx.now().getTime();
  return {
    recovery_id: recoveryId,
    status: visibleRecoveryStatus(row.status, expired),
    expires_at: expiresAt.toISOString(),
  };
}

interface SessionRow {
  sid: string;
  user_id: string;
  status: RecoveryStatus;
  expires_at: Date;
  kyc_provider_id: string | null;
}

/**
 * The provider's signed verdict (the dispatcher checked the signature). A repeated event id with the same body is
 * acknowledged without a second effect; with another body it is a replay. Effects are guarded by the session's
 * status, so concurrent deliveries act once.
 */
export async function handleRecoveryWebhook(ctx: RpcContext, data: RecoveryVerdict): Promise<WebhookResult> {
  const conn = ctx.em;
  const payloadHash = sha256Hex(ctx.request.rawBody);
  const seen = await conn.execute<{ payload_hash: string | null }[]>(
    `select payload_hash from "webhook_event" where provider = ? and event_id = ? limit 1`,
    [WEBHOOK_PROVIDER, data.event_id],
  );
  const rows = await conn.execute<SessionRow[]>(
    `select s.sid, s.user_id, s.status, s.expires_at, r.kyc_provider_id
       from "mfa_recovery_session" s left join "digital_resident" r on r.resident_id = s.resident_id
      where s.kycprovider_scan_ref = ? limit 1`,
    [data.scan_ref],
  );
  const session = rows[0];
  if (seen[0]) {
    if (seen[0].payload_hash !== payloadHash) {
      throw RpcError.app("WebhookError", "Replayed", "this event id was already delivered with another body");
    }
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
      expired: new Date(session.expires_at).getTime() <= now.getTime(),
      verdict: data.verdict,
      matchedIdentity: data.matched_kyc_provider_id ?? null,
      knownIdentity: session.kyc_provider_id,
    });
    if (next !== null) {
      const moved = await affected(
        ctx.em,
        `update "mfa_recovery_session" set status = ?, updated_at = ? where sid = ? and status = 'pending'`,
        [next, now, session.sid],
      );
      if (moved === 1) {
        status = next;
        if (next === "approved") await approve(ctx, session, now);
      }
    }
  }
  await conn.execute(
    `insert into "webhook_event" (sid, provider, event_id, received_at, payload_hash, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?) on conflict (provider, event_id) do nothing`,
    [uuidv7(now), WEBHOOK_PROVIDER, data.event_id, now, payloadHash, now, now],
  );
  return { received: true, event_id: data.event_id, duplicate: false, matched: Boolean(session), status };
}

/** The identity is proven again: TOTP goes off so the user can sign in with the password and enrol anew. */
async function approve(ctx: RpcContext, session: SessionRow, now: Date): Promise<void> {
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
