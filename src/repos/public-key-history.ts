import type { EntityManager } from "@mikro-orm/postgresql";
import { PublicKeyHistoryEntity, type PublicKeyHistoryRow } from "../../generated/entities.ts";
import type { KeyHolderType } from "../../generated/types.ts";
import { affected } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/**
 * The PublicKeyHistory table: one row per key an entity (resident, company, partner) held, the current one open
 * (valid_to null). Append-only: the
 * database refuses any change but closing valid_to once, and every delete.
 */

/** Every key of the entity, newest version first (few rows: one per key rotation). */
export function listKeyHistory(em: EntityManager, type: KeyHolderType, id: string): Promise<PublicKeyHistoryRow[]> {
  return em.find(
    PublicKeyHistoryEntity,
    { entity_type: type, entity_id: id },
    { orderBy: { version: "desc" }, disableIdentityMap: true },
  );
}

export function findKeyVersion(
  em: EntityManager,
  type: KeyHolderType,
  id: string,
  version: number,
): Promise<PublicKeyHistoryRow | null> {
  return em.findOne(
    PublicKeyHistoryEntity,
    { entity_type: type, entity_id: id, version },
    { disableIdentityMap: true },
  );
}

/** Closes the entity's open key (valid_to = now); the number of rows closed. */
export function closeOpenKey(em: EntityManager, type: KeyHolderType, id: string, now: Date): Promise<number> {
  return affected(
    em,
    `update "public_key_history" set valid_to = ?, updated_at = ? where entity_type = ? and entity_id = ? and valid_to is null`,
    [now, now, type, id],
  );
}

/** Appends one key (a native insert, in the call's transaction). */
export async function appendKey(
  em: EntityManager,
  key: Pick<PublicKeyHistoryRow, "entity_type" | "entity_id" | "version" | "public_key" | "valid_from" | "valid_to">,
  now: Date,
): Promise<void> {
  await em.insert(PublicKeyHistoryEntity, { sid: uuidv7(now), ...key, created_at: now, updated_at: now });
}
