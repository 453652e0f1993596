import type { EntityManager, FilterQuery } from "@mikro-orm/postgresql";
import { DigitalResidentEntity, type DigitalResidentRow } from "../../generated/entities.ts";
import type { ResidentStatus } from "../../generated/types.ts";
import { sqlRows } from "../db/sql.ts";

/** The DigitalResident table: the reads identity and access need (the resident services own the rest). */

/**
 * Resident ids owned by the pair (user_id, partner_id), as src/domain/resident-access.ts `ownsResident` says: a
 * personal caller never owns a partner's resident, and a reseller key also owns its partner's residents that have
 * no user (partner-onboarded).
 */
export async function ownedResidentIds(em: EntityManager, userId: string, partnerId: string | null): Promise<string[]> {
  const rows = await em.find(
    DigitalResidentEntity,
    partnerId === null
      ? { user_id: userId, partner_id: null }
      : { partner_id: partnerId, $or: [{ user_id: userId }, { user_id: null }] },
    { fields: ["resident_id"], disableIdentityMap: true },
  );
  return rows.map((r) => r.resident_id);
}

/** The user's own (not partner-managed) resident whose identity KYC verified, the earliest if several. */
export function verifiedResidentOf(
  em: EntityManager,
  userId: string,
): Promise<Pick<DigitalResidentRow, "resident_id" | "kyc_provider_id"> | null> {
  return em.findOne(
    DigitalResidentEntity,
    { user_id: userId, partner_id: null, kyc_provider_id: { $ne: "" } },
    { fields: ["resident_id", "kyc_provider_id"], orderBy: { sid: "asc" }, disableIdentityMap: true },
  );
}

/** Inserts a resident at once (not at commit): a unique index refusing it fails here, where the caller maps it. */
export async function insertResident(em: EntityManager, row: DigitalResidentRow): Promise<DigitalResidentRow> {
  await em.insert(DigitalResidentEntity, row);
  return row;
}

/*
 * The resident services' reads and writes (src/services/resident-service/, registration-service/). Loads are plain
 * rows (no identity map); every write is a native update conditioned on the status the decision was made on, so a
 * concurrent state move (a suspension, an activation, the expiry sweep) makes it touch nothing instead of
 * overwriting: the caller answers InvalidState.
 */

export type OwnerCaller = { userId: string; partnerId: string | null };

/**
 * The residents a caller owns, by the pair (src/domain/resident-access.ts): same partner (absent = absent), and the
 * caller's user or, for a reseller key, its partner's residents without a user.
 */
function ownedWhere(caller: OwnerCaller): FilterQuery<DigitalResidentRow> {
  if (caller.partnerId === null) return { user_id: caller.userId, partner_id: null };
  return { partner_id: caller.partnerId, $or: [{ user_id: caller.userId }, { user_id: null }] };
}

export function findResident(em: EntityManager, residentId: string): Promise<DigitalResidentRow | null> {
  return em.findOne(DigitalResidentEntity, { resident_id: residentId }, { disableIdentityMap: true });
}

/** The caller's own resident (the pair; for a personal caller its one personal resident), the oldest if several. */
export function findOwnResident(em: EntityManager, caller: OwnerCaller): Promise<DigitalResidentRow | null> {
  const where =
    caller.partnerId === null ? ownedWhere(caller) : { user_id: caller.userId, partner_id: caller.partnerId };
  return em.findOne(DigitalResidentEntity, where, { orderBy: { sid: "asc" }, disableIdentityMap: true });
}

/** One page of the caller's residents, newest first, and how many there are. */
export async function listOwnedResidents(
  em: EntityManager,
  caller: OwnerCaller,
  page: { offset: number; limit: number },
): Promise<{ rows: DigitalResidentRow[]; total: number }> {
  const [rows, total] = await em.findAndCount(DigitalResidentEntity, ownedWhere(caller), {
    orderBy: { sid: "desc" },
    offset: page.offset,
    limit: page.limit,
    disableIdentityMap: true,
  });
  return { rows, total };
}

/** Resident ids the caller owns by the pair, partner-onboarded ones included for a reseller key. */
export async function ownedResidentIdsOf(em: EntityManager, caller: OwnerCaller): Promise<string[]> {
  const rows = await em.find(DigitalResidentEntity, ownedWhere(caller), {
    fields: ["resident_id"],
    disableIdentityMap: true,
  });
  return rows.map((r) => r.resident_id);
}

/** A personal (not partner-managed) resident of the user exists. */
export async function hasPersonalResident(em: EntityManager, userId: string): Promise<boolean> {
  return (await em.count(DigitalResidentEntity, { user_id: userId, partner_id: null })) > 0;
}

export type ResidentChanges = Partial<Omit<DigitalResidentRow, "sid" | "resident_id" | "created_at">>;

/**
 * Applies `changes` (and updated_at) to the resident if its status is still one of `statuses`; the number of rows
 * touched (0: the resident moved meanwhile, or is gone).
 */
export function updateResidentIf(
  em: EntityManager,
  residentId: string,
  statuses: readonly ResidentStatus[],
  changes: ResidentChanges,
  now: Date,
): Promise<number> {
  return em.nativeUpdate(
    DigitalResidentEntity,
    { resident_id: residentId, status: { $in: [...statuses] } },
    { ...changes, updated_at: now },
  );
}

/** Deletes the resident if it is still pending; rows deleted. */
export function deletePendingResident(em: EntityManager, residentId: string): Promise<number> {
  return em.nativeDelete(DigitalResidentEntity, { resident_id: residentId, status: "pending" });
}

/**
 * The expiry sweep: every active resident whose subscription ended by `now` becomes expired, in one statement (so
 * concurrent sweeps on several instances move each resident once). Returns the resident ids it moved.
 */
export async function expireLapsedResidents(em: EntityManager, now: Date): Promise<string[]> {
  const rows = await sqlRows<{ resident_id: string }>(
    em,
    `update "digital_resident" set status = 'expired', updated_at = ?
     where status = 'active' and subscription_end_date is not null and subscription_end_date <= ?
     returning resident_id`,
    [now, now],
  );
  return rows.map((r) => r.resident_id);
}

/** Sets the anonymity flag if it differs, with anonymity_changed_at; rows touched (0: it had that value). */
export function flipAnonymity(em: EntityManager, residentId: string, enabled: boolean, now: Date): Promise<number> {
  return em.nativeUpdate(
    DigitalResidentEntity,
    { resident_id: residentId, anonymity_enabled: !enabled },
    { anonymity_enabled: enabled, anonymity_changed_at: now, updated_at: now },
  );
}

export type ResidentStanding = Pick<
  DigitalResidentRow,
  "resident_id" | "user_id" | "partner_id" | "status" | "subscription_end_date"
>;

/** What access decisions read of residents: the owner pair and the status (with its end date, for `effectiveStatus`). */
export function residentStandings(em: EntityManager, residentIds: string[]): Promise<ResidentStanding[]> {
  if (residentIds.length === 0) return Promise.resolve([]);
  return em.find(
    DigitalResidentEntity,
    { resident_id: { $in: residentIds } },
    {
      fields: ["resident_id", "user_id", "partner_id", "status", "subscription_end_date"],
      orderBy: { resident_id: "asc" },
      disableIdentityMap: true,
    },
  );
}
