import { type RevokedKey, revokeActiveKeysOfUser } from "../repos/api-keys.ts";
import { writeAudit } from "../repos/audit-log.ts";
import { rejectPendingOfKey } from "../repos/mcp-approvals.ts";
import type { RpcContext } from "../rpc/context.ts";
import { KeyCache } from "./key-cache.ts";

const KEY_REVOKED = "key revoked";

/**
 * A revoked or rotated key's pending approvals can never run: they become `rejected` ("key revoked"), each with
 * its audit row, the system as decider. Approved calls waiting for a retry keep their state; a retry fails with
 * the key's own error.
 */
export async function endPendingApprovals(ctx: Pick<RpcContext, "em">, keyId: string, now: Date): Promise<void> {
  for (const row of await rejectPendingOfKey(ctx.em, keyId, KEY_REVOKED, now)) {
    await writeAudit(
      ctx.em,
      {
        subjectId: row.user_id,
        action: "mcp_approval_rejected",
        targetRef: row.sid,
        targetType: "mcp_approval",
        allowed: true,
        context: { decided_by: "system", reason: KEY_REVOKED, api_key_id: keyId },
      },
      now,
    );
  }
}

/**
 * Keys revoked as a consequence of another operation (a password reset, a new assistant key, a third reseller
 * key, a partner's deactivation): each writes `revoke_api_key` with the reason and the method, as a revocation
 * by its owner does, and ends its pending approvals (issue 29 item 16).
 */
export async function auditRevocations(
  ctx: Pick<RpcContext, "em">,
  revoked: readonly RevokedKey[],
  why: { reason: string; method: string },
  now: Date,
): Promise<void> {
  for (const key of revoked) {
    await writeAudit(
      ctx.em,
      {
        subjectId: key.user_id,
        action: "revoke_api_key",
        targetRef: key.sid,
        targetType: "api_key",
        allowed: true,
        context: { reason: why.reason, method: why.method },
      },
      now,
    );
    await endPendingApprovals(ctx, key.sid, now);
  }
}

/**
 * Account recovery (a password reset) revokes every personal key of the user, the assistant's included: whoever
 * knew the old password may have minted one. Each revocation is audited (`auditRevocations`). Returns how many.
 */
export async function revokeKeysOnRecovery(ctx: Pick<RpcContext, "em">, userId: string, now: Date): Promise<number> {
  const revoked = await revokeActiveKeysOfUser(ctx.em, userId, now);
  KeyCache.of(ctx.em)?.drop(`user:${userId}`);
  await auditRevocations(ctx, revoked, { reason: "password reset", method: "authservice.reset_password" }, now);
  return revoked.length;
}
