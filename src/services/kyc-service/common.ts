import type { KycSessionRow } from "../../../generated/entities.ts";
import type { KycSessionResult, KycStatusResult } from "../../../generated/types.ts";
import { visibleKycStatus } from "../../domain/kyc.ts";
import { isRefusal, type Refusal } from "../../domain/refusal.ts";
import { ownsResident } from "../../domain/resident-access.ts";
import { effectiveStatus } from "../../domain/resident-status.ts";
import { findResident } from "../../repos/digital-residents.ts";
import { findKycResident, recordVerifiedIdentity } from "../../repos/kyc-residents.ts";
import { findKycSession } from "../../repos/kyc-sessions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { applyActivation, judgeActivation, recordFlowAtLeast } from "../registration-service/activation.ts";

export const kycError = errorsFor("KycService", "KycError");
export const webhookError = errorsFor("KycService", "WebhookError");

/** A rule's refusal as the service's declared error. */
export function refused(r: Refusal<"InvalidInput" | "InvalidState">): Error {
  return kycError(r.refusal, r.message, r.details);
}

/** The session, when the caller is an administrator in a session or owns its resident; NotFound otherwise. */
export async function loadVisibleSession(ctx: RpcContext, sessionId: string): Promise<KycSessionRow> {
  const caller = requireCaller(ctx);
  const session = await findKycSession(ctx.em, sessionId);
  if (session && isAdminSession(caller)) return session;
  const resident = session ? await findKycResident(ctx.em, session.resident_id) : null;
  if (!session || !resident || !ownsResident(caller, resident)) throw kycError.notFound("KYC session");
  return session;
}

/**
 * A verification completed (an approved verdict, or an administrator's approval): the provider's reference for the
 * verified identity becomes the resident's `kyc_provider_id`, the owner's registration flow reaches `kyc_complete`,
 * and a pending resident whose other steps are done is activated by the one rule (src/domain/activation.ts), in
 * the same transaction. Returns the resident's owning user (null for none).
 */
export async function recordCompletion(ctx: RpcContext, session: KycSessionRow, now: Date): Promise<string | null> {
  const identity = session.kyc_provider_id ?? session.kycprovider_scan_ref ?? session.sid;
  await recordVerifiedIdentity(ctx.em, session.resident_id, identity, now);
  const stored = await findResident(ctx.em, session.resident_id);
  if (!stored) return null;
  const resident = { ...stored, kyc_provider_id: identity };
  if (resident.user_id !== null) await recordFlowAtLeast(ctx, resident.user_id, "kyc_complete");
  if (effectiveStatus(resident, now) === "pending") {
    const decision = await judgeActivation(ctx, resident);
    if (!isRefusal(decision) && decision.activate) await applyActivation(ctx, resident, decision);
  }
  return resident.user_id;
}

export function toSessionResult(row: KycSessionRow, now: Date): KycSessionResult {
  return {
    session_id: row.sid,
    resident_id: row.resident_id,
    status: visibleKycStatus(row, now),
    kyc_url: row.kyc_url,
    verification_level: row.verification_level,
    callback_url: row.callback_url,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}

export function toStatusResult(row: KycSessionRow, now: Date): KycStatusResult {
  return {
    session_id: row.sid,
    resident_id: row.resident_id,
    status: visibleKycStatus(row, now),
    identity_verified: row.identity_verified,
    document_verified: row.document_verified,
    liveness_verified: row.liveness_verified,
    verification_level: row.verification_level,
    provider_verdict: row.provider_verdict,
    review_reason: row.review_reason,
    verified_at: row.verified_at?.toISOString() ?? null,
    expires_at: row.expires_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
