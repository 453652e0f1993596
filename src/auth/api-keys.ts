import type { EntityManager } from "@mikro-orm/postgresql";
import type { Caller } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { sha256Hex, TOKEN_PREFIX } from "./tokens.ts";

interface KeyRow {
  sid: string;
  user_id: string | null;
  partner_id: string | null;
  is_active: boolean;
  expires_at: Date | null;
  mcp_scope: string | null;
  email: string;
  roles: string[];
  is_suspended: boolean;
}

/** Resolves an `X-API-Key` (personal `fz_u_` or reseller `fz_r_`) to its owner as the caller. */
export async function authenticateApiKey(em: EntityManager, key: string, now: Date): Promise<Caller> {
  if (!key.startsWith(TOKEN_PREFIX.personalKey) && !key.startsWith(TOKEN_PREFIX.resellerKey)) {
    throw RpcError.unauthenticated("InvalidCredentials", "invalid API key");
  }
  const rows = await em.getConnection().execute<KeyRow[]>(
    `select k.sid, k.user_id, k.partner_id, k.is_active, k.expires_at, k.mcp_scope, u.email, u.roles, u.is_suspended
       from "api_key" k join "user" u on u.sid = k.user_id
      where k.key_hash = ? limit 1`,
    [sha256Hex(key)],
  );
  const row = rows[0];
  if (!row || row.user_id === null) throw RpcError.unauthenticated("InvalidCredentials", "invalid API key");
  if (!row.is_active) throw RpcError.unauthenticated("KeyRevoked", "API key revoked");
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime()) {
    throw RpcError.unauthenticated("KeyExpired", "API key expired");
  }
  if (row.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
  return {
    userId: row.user_id,
    email: row.email,
    roles: row.roles,
    via: "api_key",
    sessionId: null,
    apiKeyId: row.sid,
    partnerId: row.partner_id,
    mcpScope: row.mcp_scope,
  };
}
