import type { UserRow } from "../../generated/entities.ts";
import type { AuthSession, MfaChallengeResult } from "../../generated/types.ts";
import { affected } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import { writeSurviving } from "../rpc/call-context.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { limitAddress, reserveAttempt } from "./limits.ts";
import { spendSecondFactor } from "./second-factor.ts";
import { openSession } from "./sessions.ts";
import { newToken, sha256Hex, TOKEN_PREFIX } from "./tokens.ts";

export const MFA_CHALLENGE_TTL_S = 5 * 60;
/** Wrong codes one challenge survives; then the password must be proven again. */
export const MAX_CHALLENGE_ATTEMPTS = 5;

/** Issued by a login whose password was right when TOTP is on: no tokens yet. */
export async function issueChallenge(ctx: RpcContext, user: Pick<UserRow, "sid">): Promise<MfaChallengeResult> {
  const now = ctx.now();
  const challenge = newToken(TOKEN_PREFIX.mfaChallenge);
  const expiresAt = new Date(now.getTime() + MFA_CHALLENGE_TTL_S * 1000);
  ctx.em.create("MfaChallenge", {
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

export interface ChallengeRow {
  sid: string;
  user_id: string;
  expires_at: Date;
  used: boolean;
  attempts: number;
  is_suspended: boolean;
}

/** A live challenge, or the refusal API.md names: unknown InvalidCredentials, used AlreadyUsed, old Expired. */
export async function liveChallenge(ctx: RpcContext, challenge: string): Promise<ChallengeRow> {
  const rows = await ctx.em.execute<ChallengeRow[]>(
    `select c.sid, c.user_id, c.expires_at, c.used, c.attempts, u.is_suspended
       from "mfa_challenge" c join "user" u on u.sid = c.user_id
      where c.challenge_hash = ? limit 1`,
    [sha256Hex(challenge)],
  );
  const row = rows[0];
  if (!row) throw RpcError.unauthenticated("InvalidCredentials", "unknown MFA challenge");
  if (row.used) throw RpcError.app("AuthError", "AlreadyUsed", "this MFA challenge was already used; sign in again");
  if (new Date(row.expires_at).getTime() <= ctx.now().getTime()) {
    throw RpcError.app("AuthError", "Expired", "this MFA challenge has expired; sign in again");
  }
  return row;
}

/** Spends the challenge; false when a concurrent request spent it first. */
export async function claimChallenge(ctx: RpcContext, sid: string): Promise<boolean> {
  const now = ctx.now();
  const n = await affected(
    ctx.em,
    `update "mfa_challenge" set used = true, updated_at = ? where sid = ? and used = false`,
    [now, sid],
  );
  return n === 1;
}

/** Completes a login with a TOTP code (not replayable) or a backup code (spent). */
export async function loginMfa(ctx: RpcContext, challenge: string, code: string): Promise<AuthSession> {
  await limitAddress(ctx, "AuthError");
  const row = await liveChallenge(ctx, challenge);
  const succeeded = await reserveAttempt(ctx, "AuthError", `second-factor:${row.user_id}`);
  const now = ctx.now();
  if ((await spendSecondFactor(ctx.em, ctx.config, row.user_id, code, now)) === null) {
    // A wrong code spends one of the challenge's attempts for good: kept when this call rolls back.
    await writeSurviving(ctx, (em) =>
      em.execute(
        `update "mfa_challenge" set attempts = attempts + 1, used = (attempts + 1 >= ?), updated_at = ? where sid = ?`,
        [MAX_CHALLENGE_ATTEMPTS, now, row.sid],
      ),
    );
    throw RpcError.unauthenticated("InvalidCredentials", "wrong code");
  }
  await succeeded();
  if (!(await claimChallenge(ctx, row.sid))) {
    throw RpcError.app("AuthError", "AlreadyUsed", "this MFA challenge was already used; sign in again");
  }
  if (row.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
  return (await openSession(ctx.em, ctx.config, now, row.user_id, ctx.request)).result;
}
