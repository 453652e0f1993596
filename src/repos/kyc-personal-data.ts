import type { EntityManager } from "@mikro-orm/postgresql";
import { KycPersonalDataEntity, type KycPersonalDataRow } from "../../generated/entities.ts";
import { affected } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/** The KycPersonalData table: one row per resident, every present field sealed (the service seals and opens). */

export type SealedPersonalData = Pick<
  KycPersonalDataRow,
  | "resident_id"
  | "user_id"
  | "kyc_provider_id"
  | "dob"
  | "nationality"
  | "document_number"
  | "document_type"
  | "document_expiry"
>;

/** Stores a capture; a later capture for the resident replaces the earlier one whole (absent fields become null). */
export async function upsertPersonalData(em: EntityManager, row: SealedPersonalData, now: Date): Promise<void> {
  await affected(
    em,
    `insert into "kyc_personal_data"
       (sid, resident_id, user_id, kyc_provider_id, dob, nationality, document_number, document_type, document_expiry,
        created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (resident_id) do update set user_id = excluded.user_id, kyc_provider_id = excluded.kyc_provider_id,
       dob = excluded.dob, nationality = excluded.nationality, document_number = excluded.document_number,
       document_type = excluded.document_type, document_expiry = excluded.document_expiry,
       updated_at = excluded.updated_at`,
    [
      uuidv7(now),
      row.resident_id,
      row.user_id,
      row.kyc_provider_id,
      row.dob,
      row.nationality,
      row.document_number,
      row.document_type,
      row.document_expiry,
      now,
      now,
    ],
  );
}

export function findPersonalData(em: EntityManager, residentId: string): Promise<KycPersonalDataRow | null> {
  return em.findOne(KycPersonalDataEntity, { resident_id: residentId }, { disableIdentityMap: true });
}

/** Deletes what one provider session captured (its scan reference), e.g. when an administrator rejects it. */
export function deletePersonalDataFrom(em: EntityManager, residentId: string, scanRef: string): Promise<number> {
  return em.nativeDelete(KycPersonalDataEntity, { resident_id: residentId, kyc_provider_id: scanRef });
}
