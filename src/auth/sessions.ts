import type { EntityManager } from "@mikro-orm/postgresql";
import type { Config } from "../config.ts";
import { affected } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import { writeSurviving } from "../rpc/call-context.ts";
import type { Caller, RequestInfo, RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { newToken, sha256Hex, TOKEN_PREFIX } from "./tokens.ts";

export interface AuthSession {
  user_id: string;
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  expires_at: string;
  refresh_expires_at: string;
}

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
  em.create("Session", {
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

interface SessionRow {
  sid: string;
  user_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  email: string;
  roles: string[];
  is_suspended: boolean;
}

/** Resolves `Authorization: Bearer <session token>` to the caller, or refuses. */
export async function authenticateSession(em: EntityManager, token: string, now: Date): Promise<Caller> {
  const rows = await em.execute<SessionRow[]>(
    `select s.sid, s.user_id, s.expires_at, s.revoked_at, u.email, u.roles, u.is_suspended
       from "session" s join "user" u on u.sid = s.user_id
      where s.token_hash = ? limit 1`,
    [sha256Hex(token)],
  );
  const row = rows[0];
  if (!row || row.revoked_at !== null)
    throw RpcError.unauthenticated("InvalidCredentials", "invalid or revoked session token");
  if (new Date(row.expires_at).getTime() <= now.getTime())
    throw RpcError.unauthenticated("TokenExpired", "session token expired");
  if (row.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
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

interface RefreshRow {
  sid: string;
  user_id: string;
  family_id: string;
  revoked_at: Date | null;
  replaced_by: string | null;
  refresh_expires_at: Date;
  is_suspended: boolean;
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
  const rows = await em.execute<RefreshRow[]>(
    `select s.sid, s.user_id, s.family_id, s.revoked_at, s.replaced_by, s.refresh_expires_at, u.is_suspended
       from "session" s join "user" u on u.sid = s.user_id
      where s.refresh_token_hash = ? limit 1`,
    [sha256Hex(refreshToken)],
  );
  const row = rows[0];
  if (!row) throw RpcError.unauthenticated("InvalidCredentials", "invalid refresh token");
  const reused = async () => {
    await writeSurviving(ctx, (tx) => revokeFamily(tx, row.family_id, now));
    return RpcError.app("AuthError", "AlreadyUsed", "refresh token already used; the session was ended");
  };
  if (row.replaced_by !== null) throw await reused();
  if (row.revoked_at !== null) throw RpcError.unauthenticated("InvalidCredentials", "the session has ended");
  if (new Date(row.refresh_expires_at).getTime() <= now.getTime()) {
    throw RpcError.unauthenticated("TokenExpired", "refresh token expired");
  }
  if (row.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
  const next = uuidv7(now);
  // Conditional: of two concurrent refreshes with the same token exactly one wins; the other is a reuse.
  const won = await affected(
    em,
    `update "session" set revoked_at = ?, replaced_by = ?, updated_at = ? where sid = ? and revoked_at is null`,
    [now, next, now, row.sid],
  );
  if (won === 0) throw await reused();
  return (await openSession(em, config, now, row.user_id, request, row.family_id, next)).result;
}

/** Runs an UPDATE/DELETE and returns the number of rows it changed. */
export async function revokeFamily(em: EntityManager, familyId: string, now: Date): Promise<number> {
  return affected(
    em,
    `update "session" set revoked_at = ?, updated_at = ? where family_id = ? and revoked_at is null`,
    [now, now, familyId],
  );
}

export async function revokeSession(em: EntityManager, sessionId: string, now: Date): Promise<number> {
  return affected(em, `update "session" set revoked_at = ?, updated_at = ? where sid = ? and revoked_at is null`, [
    now,
    now,
    sessionId,
  ]);
}

/** Ends every live session of a user (all devices), or every one but `keep` (the caller's own). */
export async function revokeUserSessions(
  em: EntityManager,
  userId: string,
  now: Date,
  keep: string | null = null,
): Promise<number> {
  return affected(
    em,
    `update "session" set revoked_at = ?, updated_at = ?
      where user_id = ? and revoked_at is null and sid is distinct from ?`,
    [now, now, userId, keep],
  );
}
