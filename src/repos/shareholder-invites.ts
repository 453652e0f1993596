import type { EntityManager } from "@mikro-orm/postgresql";
import { ShareholderInviteEntity, type ShareholderInviteRow } from "../../generated/entities.ts";
import { sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/**
 * The ShareholderInvite table (issue 17). Only the token's SHA-256 hash is stored; one `pending` invitation per
 * company and (lower-cased) email (the partial unique index shareholder_invite_pending_email_unique). Answers move
 * `pending` conditionally, so of concurrent answers one writes.
 */

export interface NewInvite {
  companyId: string;
  inviterId: string;
  email: string;
  units: number;
  message: string | null;
  tokenHash: string;
  expiresAt: Date;
}

/** Marks the company's pending invitations to `email` that are past expires_at as `expired`. */
export async function expireStaleInvites(em: EntityManager, companyId: string, email: string, now: Date) {
  return em.nativeUpdate(
    ShareholderInviteEntity,
    { company_id: companyId, invitee_email: email, status: "pending", expires_at: { $lte: now } },
    { status: "expired", updated_at: now },
  );
}

/** Writes a pending invitation; null (nothing written) when one is already pending for the company and email. */
export async function insertInvite(em: EntityManager, i: NewInvite, now: Date): Promise<ShareholderInviteRow | null> {
  const sid = uuidv7(now);
  const rows = await sqlRows<{ sid: string }>(
    em,
    `insert into "shareholder_invite" (sid, company_id, inviter_id, invitee_email, proposed_units, message, token_hash,
       status, resident_id, expires_at, responded_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, 'pending', null, ?, null, ?, ?)
     on conflict ("company_id", "invitee_email") where "status" = 'pending' do nothing
     returning sid`,
    [sid, i.companyId, i.inviterId, i.email, i.units, i.message, i.tokenHash, i.expiresAt, now, now],
  );
  return rows.length === 0 ? null : findInvite(em, sid);
}

export function findInvite(em: EntityManager, sid: string): Promise<ShareholderInviteRow | null> {
  return em.findOne(ShareholderInviteEntity, { sid }, { disableIdentityMap: true });
}

export function findInviteByTokenHash(em: EntityManager, tokenHash: string): Promise<ShareholderInviteRow | null> {
  return em.findOne(ShareholderInviteEntity, { token_hash: tokenHash }, { disableIdentityMap: true });
}

/** Moves a pending, unexpired invitation to `status`; false when it was answered or expired meanwhile. */
export async function answerInvite(
  em: EntityManager,
  sid: string,
  answer: { status: "accepted" | "rejected"; residentId: string | null },
  now: Date,
): Promise<boolean> {
  const moved = await em.nativeUpdate(
    ShareholderInviteEntity,
    { sid, status: "pending", expires_at: { $gt: now } },
    { status: answer.status, resident_id: answer.residentId, responded_at: now, updated_at: now },
  );
  return moved === 1;
}

/** The company's pending invitations not yet expired at `now`, newest first, at most `limit`. */
export function pendingInvites(
  em: EntityManager,
  companyId: string,
  now: Date,
  limit: number,
): Promise<ShareholderInviteRow[]> {
  return em.find(
    ShareholderInviteEntity,
    { company_id: companyId, status: "pending", expires_at: { $gt: now } },
    { orderBy: { created_at: "desc", sid: "desc" }, limit, disableIdentityMap: true },
  );
}
