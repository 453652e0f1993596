import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { KycSessionEntity, type KycSessionRow } from "../../generated/entities.ts";
import type { KycStatus } from "../../generated/types.ts";
import { OPEN_KYC_STATUSES } from "../domain/kyc.ts";

/**
 * The KycSession table. Rows are read outside the identity map: every state move is a conditional native update
 * whose affected count decides a race, and the caller maps the row it loaded plus the changes it made.
 */

const LIVE: KycStatus[] = [...OPEN_KYC_STATUSES, "needs_review"];

export function insertKycSession(em: EntityManager, row: RequiredEntityData<KycSessionRow>): Promise<unknown> {
  return em.insert(KycSessionEntity, row);
}

export function findKycSession(em: EntityManager, sid: string): Promise<KycSessionRow | null> {
  return em.findOne(KycSessionEntity, { sid }, { disableIdentityMap: true });
}

export function findKycSessionByScanRef(em: EntityManager, scanRef: string): Promise<KycSessionRow | null> {
  return em.findOne(KycSessionEntity, { kycprovider_scan_ref: scanRef }, { disableIdentityMap: true });
}

/** The resident's newest session that is open (pending, in_progress) or held for review. */
export function liveKycSessionOf(em: EntityManager, residentId: string): Promise<KycSessionRow | null> {
  return em.findOne(
    KycSessionEntity,
    { resident_id: residentId, status: { $in: LIVE } },
    { orderBy: { sid: "desc" }, disableIdentityMap: true },
  );
}

export async function hasCompletedKycSession(em: EntityManager, residentId: string): Promise<boolean> {
  return (await em.count(KycSessionEntity, { resident_id: residentId, status: "completed" })) > 0;
}

/** Moves a session that is still in one of `from`; false when another call moved it first. */
export async function moveKycSession(
  em: EntityManager,
  sid: string,
  from: readonly KycStatus[],
  changes: Partial<Omit<KycSessionRow, "sid">> & { status: KycStatus; updated_at: Date },
): Promise<boolean> {
  return (await em.nativeUpdate(KycSessionEntity, { sid, status: { $in: [...from] } }, changes)) === 1;
}

/** Stores the expiry of an open session whose deadline has passed (reads already answered expired). */
export async function storeKycExpiry(em: EntityManager, sid: string, now: Date): Promise<boolean> {
  const moved = await em.nativeUpdate(
    KycSessionEntity,
    { sid, status: { $in: [...OPEN_KYC_STATUSES] }, expires_at: { $lte: now } },
    { status: "expired", updated_at: now },
  );
  return moved === 1;
}
