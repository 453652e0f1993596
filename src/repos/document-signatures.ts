import type { EntityManager } from "@mikro-orm/postgresql";
import { DocumentSignatureEntity, type DocumentSignatureRow } from "../../generated/entities.ts";
import type { EntityType } from "../../generated/types.ts";
import { affected } from "../db/sql.ts";

/** The DocumentSignature table: signatures recorded by documentservice.submit_signed. Append-only. */

/** The signature recorded for the entity with exactly this signature, or null. */
export function findRecordedSignature(
  em: EntityManager,
  type: EntityType,
  id: string,
  signature: string,
): Promise<DocumentSignatureRow | null> {
  return em.findOne(
    DocumentSignatureEntity,
    { entity_type: type, entity_id: id, signature },
    { disableIdentityMap: true },
  );
}

/**
 * Records a signature unless the entity has it already (unique entity_type, entity_id, signature): true when this
 * call inserted it. A concurrent submission of the same signature waits for the first and then inserts nothing.
 */
export async function recordSignature(
  em: EntityManager,
  row: Omit<DocumentSignatureRow, "created_at" | "updated_at">,
  now: Date,
): Promise<boolean> {
  const n = await affected(
    em,
    `insert into "document_signature" (sid, user_id, partner_id, entity_type, entity_id, document_type, document_hash,
       signature, public_key, key_version, receipt_id, signed_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (entity_type, entity_id, signature) do nothing`,
    [
      row.sid,
      row.user_id,
      row.partner_id,
      row.entity_type,
      row.entity_id,
      row.document_type,
      row.document_hash,
      row.signature,
      row.public_key,
      row.key_version,
      row.receipt_id,
      row.signed_at,
      now,
      now,
    ],
  );
  return n > 0;
}
