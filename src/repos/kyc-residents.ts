import type { EntityManager } from "@mikro-orm/postgresql";
import { DigitalResidentEntity, type DigitalResidentRow } from "../../generated/entities.ts";
import { sqlRows } from "../db/sql.ts";

/**
 * The DigitalResident columns KYC reads and writes: the owner pair, the name the provider is given, and the
 * provider's identity reference (`kyc_provider_id`), the resident's KYC state. The resident's `status` is not
 * KYC's to change (activation decides it).
 */

export type KycResident = Pick<
  DigitalResidentRow,
  "resident_id" | "user_id" | "partner_id" | "email" | "first_name" | "last_name" | "status" | "kyc_provider_id"
> & { public_key: string | null };

const COLUMNS = `resident_id, user_id, partner_id, email, first_name, last_name, status, kyc_provider_id, public_key`;

export async function findKycResident(em: EntityManager, residentId: string): Promise<KycResident | null> {
  const rows = await sqlRows<KycResident>(em, `select ${COLUMNS} from "digital_resident" where resident_id = ?`, [
    residentId,
  ]);
  return rows[0] ?? null;
}

/** The same, locked until the call's transaction ends: concurrent verifications of one resident take turns. */
export async function lockKycResident(em: EntityManager, residentId: string): Promise<KycResident | null> {
  const rows = await sqlRows<KycResident>(
    em,
    `select ${COLUMNS} from "digital_resident" where resident_id = ? for update`,
    [residentId],
  );
  return rows[0] ?? null;
}

/** A completed verification: the provider's reference for the verified identity becomes the resident's. */
export async function recordVerifiedIdentity(
  em: EntityManager,
  residentId: string,
  kycProviderId: string,
  now: Date,
): Promise<void> {
  await em.nativeUpdate(
    DigitalResidentEntity,
    { resident_id: residentId },
    { kyc_provider_id: kycProviderId, updated_at: now },
  );
}
