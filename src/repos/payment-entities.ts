import type { EntityManager } from "@mikro-orm/postgresql";
import { ZoneCompanyEntity, type ZoneCompanyRow } from "../../generated/entities.ts";
import { affected, sqlRows } from "../db/sql.ts";

/**
 * What payments read and write on DigitalResident and ZoneCompany (issue 15): a company paid for, and the payment
 * receiving fields (cardpsp_connected_account_id, mobilepay_merchant_id, payment_receiving_enabled).
 */

export function findCompany(em: EntityManager, companyId: string): Promise<ZoneCompanyRow | null> {
  return em.findOne(ZoneCompanyEntity, { company_id: companyId }, { disableIdentityMap: true });
}

export type ReceivingEntity = "resident" | "company";
export type ReceivingProvider = "cardpsp" | "mobilepay";

const TABLE: Record<ReceivingEntity, { table: string; key: string }> = {
  resident: { table: "digital_resident", key: "resident_id" },
  company: { table: "zone_company", key: "company_id" },
};
const COLUMN: Record<ReceivingProvider, string> = {
  cardpsp: "cardpsp_connected_account_id",
  mobilepay: "mobilepay_merchant_id",
};

/** Stores a newly opened provider account on the entity (receiving is not enabled by this). */
export function storeReceivingAccount(
  em: EntityManager,
  entity: ReceivingEntity,
  entityId: string,
  provider: ReceivingProvider,
  accountId: string,
  now: Date,
): Promise<number> {
  const { table, key } = TABLE[entity];
  return affected(em, `update "${table}" set "${COLUMN[provider]}" = ?, updated_at = ? where "${key}" = ?`, [
    accountId,
    now,
    entityId,
  ]);
}

export interface ReceivingHolder {
  entity: ReceivingEntity;
  entityId: string;
}

/** The resident or company holding this provider account, if any. */
export async function findReceivingHolder(
  em: EntityManager,
  provider: ReceivingProvider,
  accountId: string,
): Promise<ReceivingHolder | null> {
  for (const entity of ["resident", "company"] as const) {
    const { table, key } = TABLE[entity];
    const rows = await sqlRows<{ id: string }>(
      em,
      `select "${key}" as id from "${table}" where "${COLUMN[provider]}" = ? limit 1`,
      [accountId],
    );
    const row = rows[0];
    if (row) return { entity, entityId: row.id };
  }
  return null;
}

/** The provider verified the account: receiving is enabled (still holding that account). */
export function enableReceiving(
  em: EntityManager,
  holder: ReceivingHolder,
  provider: ReceivingProvider,
  accountId: string,
  now: Date,
): Promise<number> {
  const { table, key } = TABLE[holder.entity];
  return affected(
    em,
    `update "${table}" set payment_receiving_enabled = true, updated_at = ?
     where "${key}" = ? and "${COLUMN[provider]}" = ? and not payment_receiving_enabled`,
    [now, holder.entityId, accountId],
  );
}

/**
 * The provider rejected the account: its id is removed, and receiving is off unless the entity still holds an
 * account with the other provider.
 */
export function rejectReceiving(
  em: EntityManager,
  holder: ReceivingHolder,
  provider: ReceivingProvider,
  accountId: string,
  now: Date,
): Promise<number> {
  const { table, key } = TABLE[holder.entity];
  const other = COLUMN[provider === "cardpsp" ? "mobilepay" : "cardpsp"];
  return affected(
    em,
    `update "${table}" set "${COLUMN[provider]}" = null,
       payment_receiving_enabled = (payment_receiving_enabled and "${other}" is not null), updated_at = ?
     where "${key}" = ? and "${COLUMN[provider]}" = ?`,
    [now, holder.entityId, accountId],
  );
}
