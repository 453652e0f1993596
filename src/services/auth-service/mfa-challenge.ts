import type { UserRow } from "../../../generated/entities.ts";
import type { AuthSession, MfaChallengeResult } from "../../../generated/types.ts";
import { limitAddress, reserveAttempt } from "../../auth/limits.ts";
import { spendSecondFactor } from "../../auth/second-factor.ts";
import { openSession } from "../../auth/sessions.ts";
import { newToken, sha256Hex, TOKEN_PREFIX } from "../../auth/tokens.ts";
import { oneTimeTokenRefusal } from "../../domain/credentials.ts";
import { uuidv7 } from "../../domain/ids.ts";
import type { ChallengeWithUser } from "../../repos/mfa-challenges.ts";
import * as challenges from "../../repos/mfa-challenges.ts";
import { writeSurviving } from "../../rpc/call-context.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { RpcError } from "../../rpc/errors.ts";

export const MFA_CHALLENGE_TTL_S = 5 * 60;
/** Wrong codes one challenge survives; then the password must be proven again. */
export const MAX_CHALLENGE_ATTEMPTS = 5;

/** Issued by a login whose password was right when TOTP is on: no tokens yet. */
export async function issueChallenge(ctx: RpcContext, user: Pick<UserRow, "sid">): Promise<MfaChallengeResult> {
  const now = ctx.now();
  const challenge = newToken(TOKEN_PREFIX.mfaChallenge);
  const expiresAt = new Date(now.getTime() + MFA_CHALLENGE_TTL_S * 1000);
  challenges.insertChallenge(ctx.em, {
    sid: uuidv7(now),
    user_id: user.sid,
    challenge_hash: sha256Hex(challenge),
    expires_at: expiresAt,
    used: false,
    attempts: 0,
    created_at: now,
    updated_at: now,
  });
  return {
    user_id: user.sid,
    mfa_required: true,
    mfa_challenge: challenge,
    challenge_expires_at: expiresAt.toISOString(),
  };
}

export const challengeUsed = (): RpcError =>
  RpcError.app("AuthError", "AlreadyUsed", "this MFA challenge was already used; sign in again");

/** A live challenge, or the refusal API.md names: unknown InvalidCredentials, used AlreadyUsed, old Expired. */
export async function liveChallenge(ctx: RpcContext, challenge: string): Promise<ChallengeWithUser> {
  const row = await challenges.findChallengeByHash(ctx.em, sha256Hex(challenge));
  if (!row) throw RpcError.unauthenticated("InvalidCredentials", "unknown MFA challenge");
  const refusal = oneTimeTokenRefusal({ used: row.used, expiresAt: row.expires_at }, ctx.now());
  if (refusal === "AlreadyUsed") throw challengeUsed();
  if (refusal === "Expired")
    throw RpcError.app("AuthError", "Expired", "this MFA challenge has expired; sign in again");
  return row;
}

/**
 * Spends the challenge; false when a concurrent request spent it first. A challenge is single-use: it stays spent
 * even when the call then fails (a suspended account), as it did before calls became transactions.
 */
export function claimChallenge(ctx: Pick<RpcContext, "em" | "keepOnRollback" | "now">, sid: string): Promise<boolean> {
  const now = ctx.now();
  return writeSurviving(ctx, (em) => challenges.claimChallenge(em, sid, now));
}

/** Completes a login with a TOTP code (not replayable) or a backup code (spent). */
export async function loginMfa(ctx: RpcContext, challenge: string, code: string): Promise<AuthSession> {
  await limitAddress(ctx, "AuthError");
  const row = await liveChallenge(ctx, challenge);
  const succeeded = await reserveAttempt(ctx, "AuthError", `second-factor:${row.user_id}`);
  const now = ctx.now();
  if ((await spendSecondFactor(ctx, row.user_id, code, now)) === null) {
    // A wrong code spends one of the challenge's attempts for good: kept when this call rolls back.
    await writeSurviving(ctx, (em) => challenges.countWrongCode(em, row.sid, MAX_CHALLENGE_ATTEMPTS, now));
    throw RpcError.unauthenticated("InvalidCredentials", "wrong code");
  }
  await succeeded();
  if (!(await claimChallenge(ctx, row.sid))) {
    throw challengeUsed();
  }
  if (row.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
  return (await openSession(ctx.em, ctx.config, now, row.user_id, ctx.request)).result;
}
