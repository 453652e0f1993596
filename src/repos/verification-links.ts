import type { EntityManager } from "@mikro-orm/postgresql";
import { VerificationLinkEntity, type VerificationLinkRow } from "../../generated/entities.ts";
import type { VerificationLinkStatus } from "../../generated/types.ts";
import { countRows, dateOf, type FromSql, sqlRows } from "../db/sql.ts";

/**
 * The VerificationLink table: tier-3 links, the token stored as SHA-256 only. A stored `active` link past its
 * expiry is expired (src/domain/verification-links.ts reads it so); nothing sweeps the rows.
 */

export function insertLink(
  em: EntityManager,
  row: Omit<VerificationLinkRow, "use_count" | "last_used_at" | "revoked_at" | "status">,
): VerificationLinkRow {
  return em.create(VerificationLinkEntity, {
    ...row,
    status: "active",
    use_count: 0,
    last_used_at: null,
    revoked_at: null,
  });
}

/**
 * The number of links the user holds, counted under a transaction-scoped advisory lock per user: concurrent
 * creations of one user are counted one after the other, so the quota holds exactly.
 */
export async function lockedLinkCount(em: EntityManager, userId: string): Promise<number> {
  await sqlRows(em, "select pg_advisory_xact_lock(hashtext(?))", [`verification_link:${userId}`]);
  return countRows(em, `select count(*) as n from "verification_link" where user_id = ?`, [userId]);
}

export function findLinkByTokenHash(em: EntityManager, tokenHash: string): Promise<VerificationLinkRow | null> {
  return em.findOne(VerificationLinkEntity, { token_hash: tokenHash }, { disableIdentityMap: true });
}

/** A link of the user (its creator), or null: other users' links do not exist for them. */
export function findUserLink(em: EntityManager, userId: string, linkId: string): Promise<VerificationLinkRow | null> {
  return em.findOne(VerificationLinkEntity, { sid: linkId, user_id: userId }, { disableIdentityMap: true });
}

/** The user's links, newest first, at most `limit` (a user holds at most MAX_LINKS_PER_USER). */
export function listUserLinks(em: EntityManager, userId: string, limit: number): Promise<VerificationLinkRow[]> {
  return em.find(
    VerificationLinkEntity,
    { user_id: userId },
    { orderBy: { sid: "desc" }, limit, disableIdentityMap: true },
  );
}

/**
 * Counts one lookup with an active, unexpired link, and spends a single-use one; the status after it, or null when
 * the link was no longer usable (a concurrent lookup spent it, or it expired or was revoked meanwhile).
 */
export async function spendLink(em: EntityManager, linkId: string, now: Date): Promise<VerificationLinkStatus | null> {
  const [row] = await sqlRows<{ status: VerificationLinkStatus }>(
    em,
    `update "verification_link" set use_count = use_count + 1, last_used_at = ?, updated_at = ?,
       status = case when single_use then 'used' else status end
     where sid = ? and status = 'active' and expires_at > ? returning status`,
    [now, now, linkId, now],
  );
  return row?.status ?? null;
}

/** Revokes an active, unexpired link; the revocation time, or null when it was not active any more. */
export async function revokeLink(em: EntityManager, linkId: string, now: Date): Promise<Date | null> {
  const [row] = await sqlRows<FromSql<{ revoked_at: Date }>>(
    em,
    `update "verification_link" set status = 'revoked', revoked_at = ?, updated_at = ?
     where sid = ? and status = 'active' and expires_at > ? returning revoked_at`,
    [now, now, linkId, now],
  );
  return row ? dateOf(row.revoked_at) : null;
}

/** Deletes the user's links that are not active now (expired by status or time, used, revoked); their ids. */
export async function deleteInactiveLinks(em: EntityManager, userId: string, now: Date): Promise<string[]> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `delete from "verification_link" where user_id = ? and (status <> 'active' or expires_at <= ?) returning sid`,
    [userId, now],
  );
  return rows.map((r) => r.sid).sort();
}
