import type { EntityManager } from "@mikro-orm/postgresql";
import { findKeyByHash, type KeyWithOwner, touchLastUsed } from "../repos/api-keys.ts";
import type { Caller } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { sha256Hex, TOKEN_PREFIX } from "./tokens.ts";

/**
 * Resolves an `X-API-Key` (personal `fz_u_` or reseller `fz_r_`) to its owner as the caller. Refused at once:
 * an unknown key or one with another prefix, a revoked or expired key, a key of a deactivated partner, and a
 * suspended owner.
 */
export async function authenticateApiKey(em: EntityManager, key: string, now: Date): Promise<Caller> {
  if (!key.startsWith(TOKEN_PREFIX.personalKey) && !key.startsWith(TOKEN_PREFIX.resellerKey)) {
    throw RpcError.unauthenticated("InvalidCredentials", "invalid API key");
  }
  const row = await findKeyByHash(em, sha256Hex(key));
  if (!row || row.user_id === null) throw RpcError.unauthenticated("InvalidCredentials", "invalid API key");
  if (!row.is_active) throw RpcError.unauthenticated("KeyRevoked", "API key revoked");
  if (row.partner_id !== null && row.partner_active !== true) {
    throw RpcError.unauthenticated("KeyRevoked", "the partner of this API key is deactivated");
  }
  if (row.expires_at !== null && row.expires_at.getTime() <= now.getTime()) {
    throw RpcError.unauthenticated("KeyExpired", "API key expired");
  }
  if (row.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
  await touchLastUsed(em, row, now);
  return keyOwnerCaller({ ...row, user_id: row.user_id });
}

/** The caller an API key acts as: its owner, with the key's id, partner and MCP scope. */
export function keyOwnerCaller(
  row: Pick<KeyWithOwner, "sid" | "partner_id" | "mcp_scope" | "email" | "roles"> & { user_id: string },
): Caller {
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
