import type { KycSessionRow } from "../../../generated/entities.ts";
import type { KycServiceHandlers } from "../../../generated/handlers/index.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { callbackUrlRefusal, isOpen, kycExpired, publicKeyRefusal, startRefusal } from "../../domain/kyc.ts";
import { ownsResident } from "../../domain/resident-access.ts";
import {
  IdentityProviderError,
  type KycVerificationSession,
  kycIdentityProvider,
} from "../../integrations/identity/index.ts";
import { lockKycResident } from "../../repos/kyc-residents.ts";
import {
  hasCompletedKycSession,
  insertKycSession,
  liveKycSessionOf,
  storeKycExpiry,
} from "../../repos/kyc-sessions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { kycError, loadVisibleSession, refused, toSessionResult, toStatusResult } from "./common.ts";

type Handlers = KycServiceHandlers<RpcContext>;

/**
 * Opens a provider session for a pending resident the caller owns, or answers the open one (same public key). The
 * resident row is locked first, so concurrent starts for one resident take turns and open one session.
 */
export const startVerification: Handlers["startVerification"] = async (
  ctx,
  { resident_id, public_key, callback_url },
) => {
  const caller = requireCaller(ctx);
  const resident = await lockKycResident(ctx.em, resident_id);
  if (!resident || !ownsResident(caller, resident)) throw kycError.notFound("resident");
  const badInput = publicKeyRefusal(public_key, resident.public_key) ?? callbackUrlRefusal(callback_url);
  if (badInput) throw refused(badInput);
  const now = ctx.now();
  let live = await liveKycSessionOf(ctx.em, resident_id);
  if (live && kycExpired(live, now)) {
    await storeKycExpiry(ctx.em, live.sid, now);
    live = null;
  }
  const verified = resident.kyc_provider_id !== "" || (await hasCompletedKycSession(ctx.em, resident_id));
  const notStartable = startRefusal({
    residentStatus: resident.status,
    verified,
    heldForReview: live?.status === "needs_review",
  });
  if (notStartable) throw refused(notStartable);
  if (live && isOpen(live.status)) {
    if (live.public_key !== public_key) {
      throw kycError("InvalidState", "an open verification of this resident is bound to another public key", {
        session_id: live.sid,
        expires_at: live.expires_at.toISOString(),
      });
    }
    return toSessionResult(live, now);
  }
  let opened: KycVerificationSession;
  try {
    opened = await kycIdentityProvider(ctx.config).startVerification({
      residentId: resident.resident_id,
      firstName: resident.first_name,
      lastName: resident.last_name,
      email: resident.email,
      callbackUrl: callback_url ?? null,
      now,
    });
  } catch (err) {
    if (err instanceof IdentityProviderError) {
      throw kycError("ProviderUnavailable", "the identity provider is unavailable; try again later", {}, err);
    }
    throw err;
  }
  const row: KycSessionRow = {
    sid: uuidv7(now),
    user_id: caller.userId,
    resident_id: resident.resident_id,
    public_key,
    kyc_url: opened.url,
    status: "pending",
    kycprovider_scan_ref: opened.scanRef,
    identity_verified: false,
    document_verified: false,
    liveness_verified: false,
    verification_level: opened.verificationLevel,
    callback_url: callback_url ?? null,
    expires_at: new Date(now.getTime() + ctx.config.kyc.sessionTtlS * 1000),
    verified_at: null,
    provider_verdict: null,
    reviewed_by: null,
    review_reason: null,
    kyc_provider_id: null,
    provider_reason: null,
    created_at: now,
    updated_at: now,
  };
  await insertKycSession(ctx.em, row);
  return toSessionResult(row, now);
};

/** Read-only: an open session past its deadline reads expired (nothing is stored by a read). */
export const checkStatus: Handlers["checkStatus"] = async (ctx, { session_id }) =>
  toStatusResult(await loadVisibleSession(ctx, session_id), ctx.now());
