import type { EntityManager } from "@mikro-orm/postgresql";
import { findKeyByHash, type KeyWithOwner, lastUseDue, stampLastUsed } from "../repos/api-keys.ts";
import type { Caller } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { KeyCache } from "./key-cache.ts";
import { sha256Hex, TOKEN_PREFIX } from "./tokens.ts";

/**
 * Resolves an `X-API-Key` (personal `fz_u_` or reseller `fz_r_`) to its owner as the caller. Refused at once:
 * an unknown key or one with another prefix, a revoked or expired key, a key of a deactivated partner, and a
 * suspended owner. The key's row comes from the instance's KeyCache when it holds it (decided against `now` all
 * the same); `last_used_at` is stamped at most once a minute, off the request when the row was cached.
 */
export async function authenticateApiKey(em: EntityManager, key: string, now: Date): Promise<Caller> {
  const keyHash = hashOfKey(key);
  const cache = KeyCache.of(em);
  const cached = cache?.get(keyHash) ?? null;
  if (cached) return cachedKeyCaller(em, cached, now);
  const row = cache ? await cache.load(em, keyHash) : await findKeyByHash(em, keyHash);
  const caller = keyCaller(row, now);
  if (row && lastUseDue(row, now)) {
    row.last_used_at = now;
    await stampLastUsed(em, row.sid, now);
  }
  return caller;
}

/**
 * `authenticateApiKey` without waiting when this instance has the key's row cached: the caller, or the refusal
 * thrown, at once; undefined when the row must be read.
 */
export function authenticateCachedApiKey(em: EntityManager, key: string, now: Date): Caller | undefined {
  const cache = KeyCache.of(em);
  if (!cache?.caching) return undefined;
  const cached = cache.get(hashOfKey(key));
  return cached ? cachedKeyCaller(em, cached, now) : undefined;
}

function hashOfKey(key: string): string {
  if (!key.startsWith(TOKEN_PREFIX.personalKey) && !key.startsWith(TOKEN_PREFIX.resellerKey)) {
    throw RpcError.unauthenticated("InvalidCredentials", "invalid API key");
  }
  return sha256Hex(key);
}

/** A cached row's caller; its last use is stamped off the request. */
function cachedKeyCaller(em: EntityManager, row: KeyWithOwner, now: Date): Caller {
  const caller = keyCaller(row, now);
  KeyCache.of(em)?.touchLater(em, row, now);
  return caller;
}

/** The refusals of a key row, decided against `now` at every use (cached or not), else its owner as the caller. */
function keyCaller(row: KeyWithOwner | null, now: Date): Caller {
  if (!row || row.user_id === null) throw RpcError.unauthenticated("InvalidCredentials", "invalid API key");
  if (!row.is_active) throw RpcError.unauthenticated("KeyRevoked", "API key revoked");
  if (row.partner_id !== null && row.partner_active !== true) {
    throw RpcError.unauthenticated("KeyRevoked", "the partner of this API key is deactivated");
  }
  if (row.expires_at !== null && row.expires_at.getTime() <= now.getTime()) {
    throw RpcError.unauthenticated("KeyExpired", "API key expired");
  }
  if (row.is_suspended) throw RpcError.forbidden("AuthError", "Suspended", "account suspended");
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
