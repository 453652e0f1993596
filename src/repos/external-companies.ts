import type { EntityManager } from "@mikro-orm/postgresql";
import {
  DigitalResidentEntity,
  type DigitalResidentRow,
  ExternalCompanyRegistrationEntity,
  type ExternalCompanyRegistrationRow,
} from "../../generated/entities.ts";
import type { KybStatus } from "../../generated/types.ts";

/** The ExternalCompanyRegistration table (KYB of companies outside the zone). */

/** Rows are read outside the identity map: moves are conditional updates and the row read is only mapped. */
export function findRegistration(em: EntityManager, sid: string): Promise<ExternalCompanyRegistrationRow | null> {
  return em.findOne(ExternalCompanyRegistrationEntity, { sid }, { disableIdentityMap: true });
}

export function findRegistrationByScanRef(
  em: EntityManager,
  scanRef: string,
): Promise<ExternalCompanyRegistrationRow | null> {
  return em.findOne(ExternalCompanyRegistrationEntity, { kyb_scan_ref: scanRef }, { disableIdentityMap: true });
}

/** Whether a live (not rejected) registration holds this company register entry. */
export async function liveRegistrationExists(
  em: EntityManager,
  jurisdiction: string,
  registrationNumber: string,
): Promise<boolean> {
  const n = await em.count(ExternalCompanyRegistrationEntity, {
    jurisdiction,
    registration_number: registrationNumber,
    kyb_status: { $ne: "rejected" },
  });
  return n > 0;
}

/** Inserted at once, so the live-company unique index refuses a concurrent duplicate here, where it is mapped. */
export async function insertRegistration(
  em: EntityManager,
  row: ExternalCompanyRegistrationRow,
): Promise<ExternalCompanyRegistrationRow> {
  await em.insert(ExternalCompanyRegistrationEntity, row);
  return row;
}

export type RegistrationChanges = Partial<
  Pick<
    ExternalCompanyRegistrationRow,
    "approved_by" | "linked_dr_id" | "kyb_scan_ref" | "kyb_provider" | "rejection_reason"
  >
> & { kyb_status: KybStatus; updated_at: Date };

/** Moves a registration only if it is still in one of `from`: 0 means another call moved it first. */
export function moveRegistration(
  em: EntityManager,
  sid: string,
  from: readonly KybStatus[],
  changes: RegistrationChanges,
): Promise<number> {
  return em.nativeUpdate(ExternalCompanyRegistrationEntity, { sid, kyb_status: { $in: [...from] } }, changes);
}

/**
 * Records a provider verdict unless a newer one is recorded (the row's kyb_checked_at after `checkedAt`): one
 * statement, so concurrent deliveries never store an older verdict over a newer one.
 */
export function recordVerdict(
  em: EntityManager,
  sid: string,
  verdict: string,
  checkedAt: Date,
  now: Date,
): Promise<number> {
  return em.nativeUpdate(
    ExternalCompanyRegistrationEntity,
    { sid, $or: [{ kyb_checked_at: null }, { kyb_checked_at: { $lte: checkedAt } }] },
    { kyb_provider_status: verdict, kyb_checked_at: checkedAt, updated_at: now },
  );
}

export interface RegistrationFilter {
  /** null: every user's (administrators). */
  userId: string | null;
  status: KybStatus | undefined;
  beforeSid: string | null;
}

/** Newest first, after the cursor's sid, `limit + 1` rows (the extra one says more follow). */
export function registrationsPage(
  em: EntityManager,
  filter: RegistrationFilter,
  limit: number,
): Promise<ExternalCompanyRegistrationRow[]> {
  return em.find(
    ExternalCompanyRegistrationEntity,
    {
      ...(filter.userId !== null ? { user_id: filter.userId } : {}),
      ...(filter.status ? { kyb_status: filter.status } : {}),
      ...(filter.beforeSid ? { sid: { $lt: filter.beforeSid } } : {}),
    },
    { orderBy: { sid: "desc" }, limit: limit + 1, disableIdentityMap: true },
  );
}

/** Whether another registration links this resident already. */
export async function residentLinked(em: EntityManager, residentId: string): Promise<boolean> {
  return (await em.count(ExternalCompanyRegistrationEntity, { linked_dr_id: residentId })) > 0;
}

/** A resident by formatted id, for linking (type and ownership are the caller's to judge). */
export function residentById(
  em: EntityManager,
  residentId: string,
): Promise<Pick<DigitalResidentRow, "resident_id" | "resident_type" | "user_id" | "partner_id"> | null> {
  return em.findOne(
    DigitalResidentEntity,
    { resident_id: residentId },
    { fields: ["resident_id", "resident_type", "user_id", "partner_id"], disableIdentityMap: true },
  );
}

/** The user's personal resident (own, not partner-managed): at most one (a unique index). */
export function personalResidentOf(
  em: EntityManager,
  userId: string,
): Promise<Pick<DigitalResidentRow, "resident_id" | "email"> | null> {
  return em.findOne(
    DigitalResidentEntity,
    { user_id: userId, partner_id: null },
    { fields: ["resident_id", "email"], disableIdentityMap: true },
  );
}
