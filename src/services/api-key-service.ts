import type { ApiKeyRow } from "../../generated/entities.ts";
import type { ApiKeyServiceHandlers } from "../../generated/handlers/index.ts";
import type { ApiKeyRevokeResult } from "../../generated/types.ts";
import { issueKey, toApiKeyResult, toKeySummary } from "../auth/api-key-store.ts";
import { KeyCache } from "../auth/key-cache.ts";
import { cleanName, newPolicy, policyChanges } from "../auth/key-policy-input.ts";
import { auditRevocations, endPendingApprovals } from "../auth/key-revocation.ts";
import {
  ASSISTANT_KEY_TTL_HOURS,
  addDays,
  KEY_POLICY_DEFAULTS,
  keyIsUsable,
  PERSONAL_KEY_TTL_DAYS,
  policyOf,
} from "../domain/key-policy.ts";
import * as keys from "../repos/api-keys.ts";
import { requireCaller } from "../rpc/caller.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";
import { generateResellerKey } from "./shared/reseller-key.ts";

const apiKeyError = errorsFor("ApiKeyService", "ApiKeyError");

async function ownKey(ctx: RpcContext, keyId: string): Promise<ApiKeyRow> {
  const key = await keys.findOwnPersonalKey(ctx.em, requireCaller(ctx).userId, keyId);
  if (!key) throw apiKeyError.notFound("API key");
  return key;
}

/** ApiKeyService: personal keys of the signed-in user, the assistant's key, and reseller keys for partners. */
export const apiKeyService: ApiKeyServiceHandlers<RpcContext> = {
  async generate(ctx, { client_id, client_secret, access_password }) {
    return generateResellerKey(ctx, client_id, client_secret, access_password);
  },

  /** The password was checked by the dispatcher (x-password). */
  async generatePersonal(ctx, { name, password: _password, ...policy }) {
    const now = ctx.now();
    const { row, plaintext } = issueKey(ctx.em, now, {
      userId: requireCaller(ctx).userId,
      partnerId: null,
      name: cleanName(name),
      kind: "personal",
      policy: newPolicy(policy),
      expiresAt: addDays(now, PERSONAL_KEY_TTL_DAYS),
    });
    return toApiKeyResult(row, plaintext);
  },

  async listPersonal(ctx) {
    const rows = await keys.listPersonalKeys(ctx.em, requireCaller(ctx).userId);
    const now = ctx.now();
    return { items: rows.map((row) => toKeySummary(row, now)) };
  },

  /** Immediate and idempotent; the dispatcher writes the revoke_api_key audit row either way. */
  async revoke(ctx, { key_id }) {
    const key = await ownKey(ctx, key_id);
    const answer = (revokedAt: Date, already: boolean): ApiKeyRevokeResult => ({
      key_id,
      is_active: false,
      revoked_at: revokedAt.toISOString(),
      already_revoked: already,
    });
    if (!key.is_active) return answer(key.revoked_at ?? key.updated_at, true);
    const now = ctx.now();
    if ((await keys.revokeIfActive(ctx.em, key.sid, now)) === 0) {
      // A concurrent revocation won: the answer is that one's (idempotent).
      return answer((await keys.revokedAtOf(ctx.em, key.sid)) ?? now, true);
    }
    KeyCache.of(ctx.em)?.drop(`key:${key.sid}`);
    await endPendingApprovals(ctx, key.sid, now);
    return answer(now, false);
  },

  /** A new key with the same name and policy and a fresh expiry; the old one is revoked in the same call. */
  async rotate(ctx, { key_id }) {
    const key = await ownKey(ctx, key_id);
    if (!key.is_active) throw apiKeyError("InvalidState", "a revoked key cannot be rotated");
    const now = ctx.now();
    if ((await keys.revokeIfActive(ctx.em, key.sid, now)) === 0) {
      throw apiKeyError("InvalidState", "the key was revoked meanwhile");
    }
    KeyCache.of(ctx.em)?.drop(`key:${key.sid}`);
    await endPendingApprovals(ctx, key.sid, now);
    const { row, plaintext } = issueKey(ctx.em, now, {
      userId: requireCaller(ctx).userId,
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
    if (!keyIsUsable(key.is_active, key.expires_at, now)) {
      throw apiKeyError("InvalidState", "a revoked or expired key cannot be changed");
    }
    const changes: Partial<ApiKeyRow> = policyChanges(policy);
    if (name !== undefined) changes.name = cleanName(name);
    if (Object.keys(changes).length === 0) throw apiKeyError("InvalidInput", "name at least one field to change");
    if ((await keys.updateIfUsable(ctx.em, key.sid, changes, now)) === 0) {
      throw apiKeyError("InvalidState", "a revoked or expired key cannot be changed");
    }
    KeyCache.of(ctx.em)?.drop(`key:${key.sid}`);
    return toKeySummary({ ...key, ...changes, updated_at: now }, now);
  },

  /** The built-in assistant's read-only key: one per user, hidden from the list, re-minted on demand. */
  async mintAssistantKey(ctx) {
    const caller = requireCaller(ctx);
    const now = ctx.now();
    const replaced = await keys.revokeAssistantKeys(ctx.em, caller.userId, now);
    const why = { reason: "replaced by a new assistant key", method: "apikeyservice.mint_assistant_key" };
    await auditRevocations(ctx, replaced, why, now);
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
