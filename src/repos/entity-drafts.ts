import type { EntityManager } from "@mikro-orm/postgresql";
import {
  EntityDraftEntity,
  type EntityDraftRow,
  EntityInvitationEntity,
  type EntityInvitationRow,
  ZoneCompanyEntity,
} from "../../generated/entities.ts";
import type { EntityDraftStatus } from "../../generated/types.ts";
import { affected, sqlRows } from "../db/sql.ts";

/**
 * The EntityDraft and EntityInvitation tables (formation drafts and their invitations). Loads are plain rows (no
 * identity map); every state move is a native update conditioned on the state it was decided on, so the affected
 * count decides a race (docs/handler-pattern.md).
 */

/** The most drafts or invitations one list answers, newest first. */
export const DRAFT_LIST_LIMIT = 1000;

export async function insertDraft(em: EntityManager, row: EntityDraftRow): Promise<void> {
  await em.insert(EntityDraftEntity, row);
}

export function findDraft(em: EntityManager, sid: string): Promise<EntityDraftRow | null> {
  return em.findOne(EntityDraftEntity, { sid }, { disableIdentityMap: true });
}

export function draftsOfCreator(em: EntityManager, userId: string): Promise<EntityDraftRow[]> {
  return em.find(
    EntityDraftEntity,
    { creator_user_id: userId },
    { orderBy: { created_at: "desc", sid: "desc" }, limit: DRAFT_LIST_LIMIT, disableIdentityMap: true },
  );
}

export type DraftChanges = Partial<Omit<EntityDraftRow, "sid" | "created_at">>;

/** Applies `changes` when the draft is in one of `from` (and at `version`, when given); rows touched. */
export function updateDraftIf(
  em: EntityManager,
  sid: string,
  from: readonly EntityDraftStatus[],
  changes: DraftChanges,
  version?: number,
): Promise<number> {
  return em.nativeUpdate(
    EntityDraftEntity,
    { sid, status: { $in: [...from] }, ...(version !== undefined ? { document_version: version } : {}) },
    changes,
  );
}

/**
 * One more signature on a pending draft of this version, never past the required total: a single statement, so
 * concurrent acceptances each add one (the row lock serializes them) and none is lost.
 */
export function countSignature(em: EntityManager, sid: string, version: number, now: Date): Promise<number> {
  return affected(
    em,
    `update "entity_draft" set completed_signatures = completed_signatures + 1, updated_at = ?
     where sid = ? and status = 'pending_signatures' and document_version = ?
       and completed_signatures < total_required_signatures`,
    [now, sid, version],
  );
}

/** The drafts whose deadline has come (`signature_deadline <= now`) moved to expired, in one statement; their sids. */
export async function expireDueDrafts(em: EntityManager, now: Date): Promise<string[]> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `update "entity_draft" set status = 'expired', updated_at = ?
     where status in ('draft', 'pending_signatures') and signature_deadline <= ?
     returning sid`,
    [now, now],
  );
  return rows.map((r) => r.sid);
}

/* Invitations */

export async function insertInvitations(em: EntityManager, rows: EntityInvitationRow[]): Promise<void> {
  if (rows.length > 0) await em.insertMany(EntityInvitationEntity, rows);
}

export function findInvitation(em: EntityManager, sid: string): Promise<EntityInvitationRow | null> {
  return em.findOne(EntityInvitationEntity, { sid }, { disableIdentityMap: true });
}

/** Every invitation of the draft, oldest first. */
export function invitationsOfDraft(em: EntityManager, draftId: string): Promise<EntityInvitationRow[]> {
  return em.find(
    EntityInvitationEntity,
    { draft_id: draftId },
    { orderBy: { invited_at: "asc", sid: "asc" }, disableIdentityMap: true },
  );
}

export function invitationsOfUser(em: EntityManager, userId: string): Promise<EntityInvitationRow[]> {
  return em.find(
    EntityInvitationEntity,
    { invitee_user_id: userId },
    { orderBy: { invited_at: "desc", sid: "desc" }, limit: DRAFT_LIST_LIMIT, disableIdentityMap: true },
  );
}

/** Whether the user was ever invited to the draft (invitees may read it). */
export async function isInvitee(em: EntityManager, draftId: string, userId: string): Promise<boolean> {
  return (await em.count(EntityInvitationEntity, { draft_id: draftId, invitee_user_id: userId })) > 0;
}

/** Moves a pending invitation of `version` that has not expired by `now`; rows touched. */
export function respondIf(
  em: EntityManager,
  sid: string,
  version: number,
  now: Date,
  changes: Pick<EntityInvitationRow, "status"> & Partial<Pick<EntityInvitationRow, "signature_id" | "decline_reason">>,
): Promise<number> {
  return em.nativeUpdate(
    EntityInvitationEntity,
    { sid, status: "pending", document_version: version, expires_at: { $gt: now } },
    { ...changes, responded_at: now, updated_at: now },
  );
}

/** Pending invitations of the drafts moved to expired (a void, a cancel, the sweep); how many. */
export function expirePendingInvitations(em: EntityManager, draftIds: string[], now: Date): Promise<number> {
  if (draftIds.length === 0) return Promise.resolve(0);
  return em.nativeUpdate(
    EntityInvitationEntity,
    { draft_id: { $in: draftIds }, status: "pending" },
    { status: "expired", updated_at: now },
  );
}

/** The company or cooperative created from the draft, or null. */
export async function companyOfDraft(em: EntityManager, draftId: string): Promise<string | null> {
  const row = await em.findOne(
    ZoneCompanyEntity,
    { draft_id: draftId },
    { fields: ["company_id"], disableIdentityMap: true },
  );
  return row?.company_id ?? null;
}

/** The ids of the companies created from these drafts, by draft sid. */
export async function companiesOfDrafts(em: EntityManager, draftIds: string[]): Promise<Map<string, string>> {
  if (draftIds.length === 0) return new Map();
  const rows = await em.find(
    ZoneCompanyEntity,
    { draft_id: { $in: draftIds } },
    { fields: ["company_id", "draft_id"], disableIdentityMap: true },
  );
  return new Map(rows.flatMap((r) => (r.draft_id ? [[r.draft_id, r.company_id] as const] : [])));
}

/** `pending_signatures -> all_signed` when every required signature of this version is in; rows touched. */
export function markAllSigned(em: EntityManager, sid: string, version: number, now: Date): Promise<number> {
  return affected(
    em,
    `update "entity_draft" set status = 'all_signed', completed_at = ?, updated_at = ?
     where sid = ? and status = 'pending_signatures' and document_version = ?
       and completed_signatures = total_required_signatures`,
    [now, now, sid, version],
  );
}
