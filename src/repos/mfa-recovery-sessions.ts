import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import {
  type DigitalResidentRow,
  MfaRecoverySessionEntity,
  type MfaRecoverySessionRow,
} from "../../generated/entities.ts";
import type { MfaRecoveryStatus } from "../../generated/types.ts";
import { dateOf, type FromSql, sqlRows } from "../db/sql.ts";

/** The MfaRecoverySession table: a 2FA recovery by identity re-verification, one pending per user. */

export function insertRecovery(em: EntityManager, row: RequiredEntityData<MfaRecoverySessionRow>) {
  return em.create(MfaRecoverySessionEntity, row);
}

export function findRecovery(em: EntityManager, sid: string): Promise<MfaRecoverySessionRow | null> {
  return em.findOne(MfaRecoverySessionEntity, { sid });
}

/** Expires the user's pending recoveries (a new one supersedes them). */
export function expirePendingRecoveries(em: EntityManager, userId: string, now: Date): Promise<number> {
  return em.nativeUpdate(
    MfaRecoverySessionEntity,
    { user_id: userId, status: "pending" },
    { status: "expired", updated_at: now },
  );
}

/** A recovery and the identity its resident verified at KYC (null when the resident is gone). */
export type RecoveryWithIdentity = Pick<MfaRecoverySessionRow, "sid" | "user_id" | "status" | "expires_at"> & {
  kyc_provider_id: DigitalResidentRow["kyc_provider_id"] | null;
};

export async function findRecoveryByScanRef(em: EntityManager, scanRef: string): Promise<RecoveryWithIdentity | null> {
  const rows = await sqlRows<FromSql<RecoveryWithIdentity>>(
    em,
    `select s.sid, s.user_id, s.status, s.expires_at, r.kyc_provider_id
       from "mfa_recovery_session" s left join "digital_resident" r on r.resident_id = s.resident_id
      where s.kycprovider_scan_ref = ? limit 1`,
    [scanRef],
  );
  const row = rows[0];
  return row ? { ...row, expires_at: dateOf(row.expires_at) } : null;
}

/** Moves a pending recovery to `next`; false when it was no longer pending (a concurrent delivery moved it). */
export async function movePendingRecovery(
  em: EntityManager,
  sid: string,
  next: MfaRecoveryStatus,
  now: Date,
): Promise<boolean> {
  const moved = await em.nativeUpdate(
    MfaRecoverySessionEntity,
    { sid, status: "pending" },
    { status: next, updated_at: now },
  );
  return moved === 1;
}
