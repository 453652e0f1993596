import type { VerificationLinkRow } from "../../../generated/entities.ts";
import type { EntityType, VerificationLinkSummary } from "../../../generated/types.ts";
import { newToken, sha256Hex } from "../../auth/tokens.ts";
import { accessRefusal } from "../../domain/entity-access.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { isRefusal } from "../../domain/refusal.ts";
import {
  linkExpiry,
  linkLabel,
  linkQuotaRefusal,
  linkStatus,
  MAX_LINKS_PER_USER,
} from "../../domain/verification-links.ts";
import {
  deleteInactiveLinks,
  findUserLink,
  insertLink,
  listUserLinks,
  lockedLinkCount,
  revokeLink,
} from "../../repos/verification-links.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { entityWithAccess } from "../shared/signing/entities.ts";

/** Verification links: made by the entity's owner, listed, revoked and cleaned up by their creator only. */

const linkError = errorsFor("VerificationService", "LinkError");

/** Link tokens: 32 random bytes; only their SHA-256 is stored. */
const LINK_TOKEN_PREFIX = "fzl_";

export function linkUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/verify?token=${encodeURIComponent(token)}`;
}

function toSummary(row: VerificationLinkRow, now: Date): VerificationLinkSummary {
  return {
    link_id: row.sid,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    label: row.label,
    single_use: row.single_use,
    status: linkStatus(row, now),
    expires_at: row.expires_at.toISOString(),
    use_count: row.use_count,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

export async function createVerificationLink(
  ctx: RpcContext,
  params: {
    entity_type: EntityType;
    entity_id: string;
    expires_in_hours: number;
    single_use: boolean;
    label?: string | undefined;
  },
) {
  const now = ctx.now();
  const expiresAt = linkExpiry(params.expires_in_hours, now);
  if (isRefusal(expiresAt)) throw linkError(expiresAt.refusal, expiresAt.message, expiresAt.details);
  const label = linkLabel(params.label);
  if (isRefusal(label)) throw linkError(label.refusal, label.message, label.details);
  const found = await entityWithAccess(ctx, params.entity_type, params.entity_id);
  if (!found) throw linkError.notFound(params.entity_type);
  const denied = accessRefusal(found.access, "manages", params.entity_type);
  if (denied) throw linkError(denied.refusal, denied.message);
  const userId = requireCaller(ctx).userId;
  const full = linkQuotaRefusal(await lockedLinkCount(ctx.em, userId));
  if (full) throw linkError(full.refusal, full.message, full.details);
  const token = newToken(LINK_TOKEN_PREFIX);
  const row = insertLink(ctx.em, {
    sid: uuidv7(now),
    user_id: userId,
    entity_type: params.entity_type,
    entity_id: found.entity.entity_id,
    label,
    token_hash: sha256Hex(token),
    single_use: params.single_use,
    expires_at: expiresAt,
    created_at: now,
    updated_at: now,
  });
  const { use_count: _uses, last_used_at: _last, revoked_at: _revoked, ...summary } = toSummary(row, now);
  return { ...summary, token, verify_url: linkUrl(ctx.config.publicBaseUrl, token) };
}

/** Idempotent: a link no longer active is answered as it is (revoked_at null unless it was revoked). */
export async function revokeVerificationLink(ctx: RpcContext, { link_id }: { link_id: string }) {
  const link = await findUserLink(ctx.em, requireCaller(ctx).userId, link_id);
  if (!link) throw linkError.notFound("verification link");
  const now = ctx.now();
  const revokedAt = await revokeLink(ctx.em, link.sid, now);
  if (revokedAt) return { link_id: link.sid, status: "revoked" as const, revoked_at: revokedAt.toISOString() };
  const current = (await findUserLink(ctx.em, link.user_id, link.sid)) ?? link;
  return {
    link_id: current.sid,
    status: linkStatus(current, now),
    revoked_at: current.revoked_at?.toISOString() ?? null,
  };
}

export async function listVerificationLinks(ctx: RpcContext, { user_id }: { user_id: string }) {
  const rows = await listUserLinks(ctx.em, user_id, MAX_LINKS_PER_USER);
  const now = ctx.now();
  return { items: rows.map((row) => toSummary(row, now)) };
}

export async function deleteInactiveVerificationLinks(ctx: RpcContext, { user_id }: { user_id: string }) {
  const ids = await deleteInactiveLinks(ctx.em, user_id, ctx.now());
  return { deleted_count: ids.length, link_ids: ids };
}
