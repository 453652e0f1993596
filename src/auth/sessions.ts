import type { EntityManager } from "@mikro-orm/postgresql";
import type { AuthSession } from "../../generated/types.ts";
import type { Config } from "../config.ts";
import { refreshRefusal, sessionRefusal } from "../domain/credentials.ts";
import { uuidv7 } from "../domain/ids.ts";
import * as sessions from "../repos/sessions.ts";
import { writeSurviving } from "../rpc/call-context.ts";
import type { Caller, RequestInfo, RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { newToken, sha256Hex, TOKEN_PREFIX } from "./tokens.ts";

/** Opens a session: both tokens are returned once and stored only as SHA-256. */
export async function openSession(
  em: EntityManager,
  config: Config,
  now: Date,
  userId: string,
  request: Pick<RequestInfo, "ip" | "userAgent">,
  familyId: string | null = null,
  sid: string = uuidv7(now),
): Promise<{ result: AuthSession; sessionId: string }> {
  const accessToken = newToken(TOKEN_PREFIX.session);
  const refreshToken = newToken(TOKEN_PREFIX.refresh);
  const expiresAt = new Date(now.getTime() + config.accessTokenTtlS * 1000);
  const refreshExpiresAt = new Date(now.getTime() + config.refreshTokenTtlS * 1000);
  sessions.insertSession(em, {
    sid,
    user_id: userId,
    token_hash: sha256Hex(accessToken),
    refresh_token_hash: sha256Hex(refreshToken),
    family_id: familyId ?? sid,
    expires_at: expiresAt,
    refresh_expires_at: refreshExpiresAt,
    revoked_at: null,
    replaced_by: null,
    user_agent: request.userAgent?.slice(0, 512) ?? null,
    ip_address: request.ip,
    created_at: now,
    updated_at: now,
  });
  await em.flush();
  return {
    sessionId: sid,
    result: {
      user_id: userId,
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: "Bearer",
      expires_at: expiresAt.toISOString(),
      refresh_expires_at: refreshExpiresAt.toISOString(),
    },
  };
}

/** Resolves `Authorization: Bearer <session token>` to the caller, or refuses. */
export async function authenticateSession(em: EntityManager, token: string, now: Date): Promise<Caller> {
  const row = await sessions.findSessionByTokenHash(em, sha256Hex(token));
  if (!row) throw RpcError.unauthenticated("InvalidCredentials", "invalid or revoked session token");
  const refusal = sessionRefusal(
    { revokedAt: row.revoked_at, expiresAt: row.expires_at, suspended: row.is_suspended },
    now,
  );
  if (refusal === "Revoked") throw RpcError.unauthenticated("InvalidCredentials", "invalid or revoked session token");
  if (refusal === "Expired") throw RpcError.unauthenticated("TokenExpired", "session token expired");
  if (refusal === "Suspended") throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
  return {
    userId: row.user_id,
    email: row.email,
    roles: row.roles,
    via: "session",
    sessionId: row.sid,
    apiKeyId: null,
    partnerId: null,
    mcpScope: null,
  };
}

/**
 * Spends a refresh token: the session it belongs to is revoked and replaced by a new one in the same family.
 * A token that was already rotated is a sign of theft (either the thief or the user holds a copy), so the whole
 * family is revoked and both must sign in again.
 */
export async function rotateRefreshToken(
  ctx: Pick<RpcContext, "em" | "keepOnRollback">,
  config: Config,
  now: Date,
  refreshToken: string,
  request: Pick<RequestInfo, "ip" | "userAgent">,
): Promise<AuthSession> {
  const em = ctx.em;
  const row = await sessions.findSessionByRefreshHash(em, sha256Hex(refreshToken));
  if (!row) throw RpcError.unauthenticated("InvalidCredentials", "invalid refresh token");
  const reused = async () => {
    await writeSurviving(ctx, (tx) => sessions.revokeFamily(tx, row.family_id, now));
    return RpcError.app("AuthError", "AlreadyUsed", "refresh token already used; the session was ended");
  };
  const refusal = refreshRefusal(
    {
      replacedBy: row.replaced_by,
      revokedAt: row.revoked_at,
      refreshExpiresAt: row.refresh_expires_at,
      suspended: row.is_suspended,
    },
    now,
  );
  if (refusal === "Reused") throw await reused();
  if (refusal === "Ended") throw RpcError.unauthenticated("InvalidCredentials", "the session has ended");
  if (refusal === "Expired") throw RpcError.unauthenticated("TokenExpired", "refresh token expired");
  if (refusal === "Suspended") throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
  const next = uuidv7(now);
  // Conditional: of two concurrent refreshes with the same token exactly one wins; the other is a reuse.
  const won = await sessions.replaceSession(em, row.sid, next, now);
  if (won === 0) throw await reused();
  return (await openSession(em, config, now, row.user_id, request, row.family_id, next)).result;
}

/** Ends every live session of a user (all devices), or every one but `keep` (the caller's own). */
export function revokeUserSessions(em: EntityManager, userId: string, now: Date, keep: string | null = null) {
  return sessions.revokeUserSessions(em, userId, now, keep);
}

export { revokeFamily, revokeSession } from "../repos/sessions.ts";
