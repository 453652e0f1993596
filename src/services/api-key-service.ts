import type { ApiKeyServiceHandlers } from "../../generated/handlers/index.ts";
import { findOwnPersonalKey, issueKey, type KeyRow, toApiKeyResult, toKeySummary } from "../auth/api-key-store.ts";
import { cleanName, newPolicy, policyChanges } from "../auth/key-policy-input.ts";
import { generateResellerKey } from "../auth/partners.ts";
import { TOKEN_PREFIX } from "../auth/tokens.ts";
import { affected } from "../db/sql.ts";
import {
  ASSISTANT_KEY_TTL_HOURS,
  addDays,
  KEY_POLICY_DEFAULTS,
  keyIsUsable,
  PERSONAL_KEY_TTL_DAYS,
  policyOf,
} from "../domain/key-policy.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { errorsFor } from "../rpc/service-errors.ts";

const apiKeyError = errorsFor("ApiKeyService", "ApiKeyError");

function callerOf(ctx: RpcContext) {
  if (!ctx.caller) throw RpcError.unauthenticated();
  return ctx.caller;
}

async function ownKey(ctx: RpcContext, keyId: string): Promise<KeyRow> {
  const key = await findOwnPersonalKey(ctx.em, callerOf(ctx).userId, keyId);
  if (!key) throw apiKeyError.notFound("API key");
  return key;
}

/** ApiKeyService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const apiKeyService: ApiKeyServiceHandlers<RpcContext> = {
  async generate(ctx, { client_id, client_secret, access_password }) {
    return generateResellerKey(ctx, client_id, client_secret, access_password);
  },

  /** The password was checked by the dispatcher (x-password). */
  async generatePersonal(ctx, { name, password: _password, ...policy }) {
    const now = ctx.now();
    const { row, plaintext } = issueKey(ctx.em, now, {
      userId: callerOf(ctx).userId,
      partnerId: null,
      name: cleanName(name),
      kind: "personal",
      policy: newPolicy(policy),
      expiresAt: addDays(now, PERSONAL_KEY_TTL_DAYS),
    });
    return toApiKeyResult(row, plaintext);
  },

  async listPersonal(ctx) {
    const rows = await ctx.em.find<KeyRow>(
      "ApiKey",
      { user_id: callerOf(ctx).userId, partner_id: null, prefix: TOKEN_PREFIX.personalKey, is_system_minted: false },
      { orderBy: { sid: "desc" } },
    );
    const now = ctx.now();
    return { items: rows.map((row) => toKeySummary(row, now)) };
  },

  /** Immediate and idempotent; the dispatcher writes the revoke_api_key audit row either way. */
  async revoke(ctx, { key_id }) {
    const key = await ownKey(ctx, key_id);
    if (!key.is_active) {
      return {
        key_id,
        is_active: false,
        revoked_at: new Date(key.revoked_at ?? (key["updated_at"] as Date)).toISOString(),
        already_revoked: true,
      };
    }
    const now = ctx.now();
    key.is_active = false;
    key.revoked_at = now;
    key["updated_at"] = now;
    return { key_id, is_active: false, revoked_at: now.toISOString(), already_revoked: false };
  },

  /** A new key with the same name and policy and a fresh expiry; the old one is revoked in the same call. */
  async rotate(ctx, { key_id }) {
    const key = await ownKey(ctx, key_id);
    if (!key.is_active) throw apiKeyError("InvalidState", "a revoked key cannot be rotated");
    const now = ctx.now();
    const won = await affected(
      ctx.em,
      `update "api_key" set is_active = false, revoked_at = ?, updated_at = ? where sid = ? and is_active`,
      [now, now, key.sid],
    );
    if (won === 0) throw apiKeyError("InvalidState", "the key was revoked meanwhile");
    const { row, plaintext } = issueKey(ctx.em, now, {
      userId: key.user_id as string,
      partnerId: null,
      name: key.name,
      kind: "personal",
      policy: policyOf(key),
      expiresAt: addDays(now, PERSONAL_KEY_TTL_DAYS),
    });
    return toApiKeyResult(row, plaintext);
  },

  /** Fields left out stay; a call that names nothing to change is InvalidInput. */
  async updatePersonal(ctx, { key_id, name, ...policy }) {
    const key = await ownKey(ctx, key_id);
    const now = ctx.now();
    if (!keyIsUsable(key.is_active, key.expires_at === null ? null : new Date(key.expires_at), now)) {
      throw apiKeyError("InvalidState", "a revoked or expired key cannot be changed");
    }
    const changes: Record<string, unknown> = policyChanges(policy);
    if (name !== undefined) changes["name"] = cleanName(name);
    if (Object.keys(changes).length === 0) {
      throw apiKeyError("InvalidInput", "name at least one field to change");
    }
    Object.assign(key, changes, { updated_at: now });
    return toKeySummary(key, now);
  },

  /** The built-in assistant's read-only key: one per user, hidden from the list, re-minted on demand. */
  async mintAssistantKey(ctx) {
    const caller = callerOf(ctx);
    const now = ctx.now();
    await ctx.em.execute(
      `update "api_key" set is_active = false, revoked_at = ?, updated_at = ?
        where user_id = ? and is_system_minted and is_active`,
      [now, now, caller.userId],
    );
    const { row, plaintext } = issueKey(ctx.em, now, {
      userId: caller.userId,
      partnerId: null,
      name: "AI assistant",
      kind: "personal",
      policy: { ...KEY_POLICY_DEFAULTS, mcp_scope: "read" },
      expiresAt: new Date(now.getTime() + ASSISTANT_KEY_TTL_HOURS * 3600 * 1000),
      isSystemMinted: true,
    });
    return toApiKeyResult(row, plaintext);
  },
};
