import type { EntityManager } from "@mikro-orm/postgresql";
import type { Config } from "../config.ts";
import { uuidv7 } from "../domain/ids.ts";
import type { Caller, RequestInfo } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { newToken, sha256Hex, TOKEN_PREFIX } from "./tokens.ts";

export interface AuthResult {
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
): Promise<{ result: AuthResult; sessionId: string }> {
  const accessToken = newToken(TOKEN_PREFIX.session);
  const refreshToken = newToken(TOKEN_PREFIX.refresh);
  const expiresAt = new Date(now.getTime() + config.accessTokenTtlS * 1000);
  const refreshExpiresAt = new Date(now.getTime() + config.refreshTokenTtlS * 1000);
  const sid = uuidv7(now);
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
  const rows = await em.getConnection().execute<SessionRow[]>(
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
