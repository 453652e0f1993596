import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { PartnerConfigurationEntity, type PartnerConfigurationRow } from "../../generated/entities.ts";
import { sqlRows } from "../db/sql.ts";

/** The PartnerConfiguration table: resellers, their hashed credentials and their wallet user. */

export function findPartner(em: EntityManager, partnerId: string): Promise<PartnerConfigurationRow | null> {
  return em.findOne(PartnerConfigurationEntity, { sid: partnerId });
}

export function findPartnerByClientId(em: EntityManager, clientId: string): Promise<PartnerConfigurationRow | null> {
  return em.findOne(PartnerConfigurationEntity, { client_id: clientId });
}

/** Names are unique case-insensitively. */
export async function partnerNameTaken(em: EntityManager, name: string): Promise<boolean> {
  const rows = await sqlRows(em, `select 1 from "partner_configuration" where lower(name) = lower(?) limit 1`, [name]);
  return rows.length > 0;
}

/** Newest first. */
export function listPartners(em: EntityManager): Promise<PartnerConfigurationRow[]> {
  return em.find(PartnerConfigurationEntity, {}, { orderBy: { sid: "desc" } });
}

export function insertPartner(
  em: EntityManager,
  row: RequiredEntityData<PartnerConfigurationRow>,
): PartnerConfigurationRow {
  return em.create(PartnerConfigurationEntity, row);
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
