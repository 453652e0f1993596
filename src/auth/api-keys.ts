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
  last_used_at: Date | null;
  email: string;
  roles: string[];
  is_suspended: boolean;
  partner_active: boolean | null;
}

/** `last_used_at` is kept to the minute: one write per key per minute at most, not one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves an `X-API-Key` (personal `fz_u_` or reseller `fz_r_`) to its owner as the caller. Refused at once:
 * an unknown key or one with another prefix, a revoked or expired key, a key of a deactivated partner, and a
 * suspended owner.
 */
export async function authenticateApiKey(em: EntityManager, key: string, now: Date): Promise<Caller> {
  if (!key.startsWith(TOKEN_PREFIX.personalKey) && !key.startsWith(TOKEN_PREFIX.resellerKey)) {
    throw RpcError.unauthenticated("InvalidCredentials", "invalid API key");
  }
  const rows = await em.execute<KeyRow[]>(
    `select k.sid, k.user_id, k.partner_id, k.is_active, k.expires_at, k.mcp_scope, k.last_used_at,
            u.email, u.roles, u.is_suspended, p.is_active as partner_active
       from "api_key" k join "user" u on u.sid = k.user_id
       left join "partner_configuration" p on p.sid = k.partner_id
      where k.key_hash = ? limit 1`,
    [sha256Hex(key)],
  );
  const row = rows[0];
  if (!row || row.user_id === null) throw RpcError.unauthenticated("InvalidCredentials", "invalid API key");
  if (!row.is_active) throw RpcError.unauthenticated("KeyRevoked", "API key revoked");
  if (row.partner_id !== null && row.partner_active !== true) {
    throw RpcError.unauthenticated("KeyRevoked", "the partner of this API key is deactivated");
  }
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime()) {
    throw RpcError.unauthenticated("KeyExpired", "API key expired");
  }
  if (row.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
  if (row.last_used_at === null || now.getTime() - new Date(row.last_used_at).getTime() >= LAST_USED_RESOLUTION_MS) {
    await em.execute(`update "api_key" set last_used_at = ? where sid = ?`, [now, row.sid]);
  }
  return keyOwnerCaller({ ...row, user_id: row.user_id });
}

/** The caller an API key acts as: its owner, with the key's id, partner and MCP scope. */
export function keyOwnerCaller(row: {
  sid: string;
  user_id: string;
  partner_id: string | null;
  mcp_scope: string | null;
  email: string;
  roles: string[];
}): Caller {
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
