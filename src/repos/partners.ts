import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { PartnerConfigurationEntity, type PartnerConfigurationRow } from "../../generated/entities.ts";
import { sqlRows } from "../db/sql.ts";
import { nameKey } from "../domain/name-key.ts";

/** The PartnerConfiguration table: resellers, their hashed credentials and their wallet user. */

export function findPartner(em: EntityManager, partnerId: string): Promise<PartnerConfigurationRow | null> {
  return em.findOne(PartnerConfigurationEntity, { sid: partnerId });
}

export function findPartnerByClientId(em: EntityManager, clientId: string): Promise<PartnerConfigurationRow | null> {
  return em.findOne(PartnerConfigurationEntity, { client_id: clientId });
}

/** Names are unique by their nameKey: without case, invisibles or kinds of space. */
export async function partnerNameTaken(em: EntityManager, name: string): Promise<boolean> {
  const rows = await sqlRows(em, `select 1 from "partner_configuration" where name_key = ? limit 1`, [nameKey(name)]);
  return rows.length > 0;
}

/** Newest first. */
export function listPartners(em: EntityManager): Promise<PartnerConfigurationRow[]> {
  return em.find(PartnerConfigurationEntity, {}, { orderBy: { sid: "desc" } });
}

/** The new partner, its `name_key` derived from its name here (never by the caller). */
export function insertPartner(
  em: EntityManager,
  row: Omit<RequiredEntityData<PartnerConfigurationRow>, "name_key">,
): PartnerConfigurationRow {
  return em.create(PartnerConfigurationEntity, { ...row, name_key: nameKey(row.name) });
}

/**
 * Writes `changes` to the partner if it is still in the activity the handler decided on (`wasActive`; null: in
 * either), as one conditional UPDATE; false when a concurrent call moved it first.
 */
export async function updatePartnerIf(
  em: EntityManager,
  partnerId: string,
  wasActive: boolean | null,
  changes: Partial<PartnerConfigurationRow>,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(
    PartnerConfigurationEntity,
    { sid: partnerId, ...(wasActive === null ? {} : { is_active: wasActive }) },
    { ...changes, updated_at: now },
  );
  return n > 0;
}

/**
 * Replaces the partner's signing key if it is still `expected` (and the partner still active when `activeOnly`), as
 * one conditional UPDATE; false when a concurrent registration, rotation or deactivation came first.
 */
export async function replaceSigningKeyIf(
  em: EntityManager,
  partnerId: string,
  expected: string | null,
  next: string | null,
  activeOnly: boolean,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(
    PartnerConfigurationEntity,
    { sid: partnerId, signing_public_key: expected, ...(activeOnly ? { is_active: true } : {}) },
    { signing_public_key: next, updated_at: now },
  );
  return n > 0;
}
