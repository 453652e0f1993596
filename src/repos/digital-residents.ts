import type { EntityManager } from "@mikro-orm/postgresql";
import { DigitalResidentEntity, type DigitalResidentRow } from "../../generated/entities.ts";

/** The DigitalResident table: the reads identity and access need (the resident services own the rest). */

/** Resident ids owned by the pair (user_id, partner_id): a personal caller never owns a partner's resident. */
export async function ownedResidentIds(em: EntityManager, userId: string, partnerId: string | null): Promise<string[]> {
  const rows = await em.find(
    DigitalResidentEntity,
    { user_id: userId, partner_id: partnerId },
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
