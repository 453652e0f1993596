import type { EntityManager } from "@mikro-orm/postgresql";
import { ContractEntity, type ContractRow } from "../../generated/entities.ts";
import type { ContractStatus } from "../../generated/types.ts";
import { sqlRows } from "../db/sql.ts";
import type { ContractFields, ContractPatch } from "../domain/contracts.ts";
import { uuidv7 } from "../domain/ids.ts";

/** The Contract table: a company's contracts with counterparties (ContractService). */

/** The company's contracts, newest first (at most 1,000). */
export function contractsOfCompany(em: EntityManager, companyId: string): Promise<ContractRow[]> {
  return em.find(
    ContractEntity,
    { fzc_id: companyId },
    { orderBy: { created_at: "desc", sid: "desc" }, limit: 1000, disableIdentityMap: true },
  );
}

/** One contract of the company (null when it is unknown or another company's). */
export function findCompanyContract(em: EntityManager, companyId: string, sid: string): Promise<ContractRow | null> {
  return em.findOne(ContractEntity, { sid, fzc_id: companyId }, { disableIdentityMap: true });
}

export async function insertContract(
  em: EntityManager,
  companyId: string,
  fields: ContractFields,
  now: Date,
): Promise<ContractRow> {
  const row: ContractRow = {
    sid: uuidv7(now),
    fzc_id: companyId,
    ...fields,
    status: "draft",
    currency: null,
    description: null,
    created_at: now,
    updated_at: now,
  };
  await em.insert(ContractEntity, row);
  return row;
}

/**
 * Applies a patch only while the contract still has the status it was decided on: false when it moved meanwhile
 * (a concurrent update, archive or the expiry sweep), so the caller answers InvalidState.
 */
export async function updateContractFrom(
  em: EntityManager,
  sid: string,
  from: ContractStatus,
  patch: ContractPatch,
  now: Date,
): Promise<boolean> {
  return (await em.nativeUpdate(ContractEntity, { sid, status: from }, { ...patch, updated_at: now })) === 1;
}

/** Archives the contract unless it already is; false when it was archived meanwhile. */
export async function archiveContract(em: EntityManager, sid: string, now: Date): Promise<boolean> {
  const n = await em.nativeUpdate(
    ContractEntity,
    { sid, status: { $ne: "archived" } },
    { status: "archived", updated_at: now },
  );
  return n === 1;
}

/**
 * The expiry sweep's one statement: pending or active contracts whose end_date has passed become `expired`.
 * Conditional, so it is idempotent and safe on several instances at once. Answers the moved sids.
 */
export async function expireEndedContracts(em: EntityManager, now: Date): Promise<string[]> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `update "contract" set status = 'expired', updated_at = ?
     where status in ('pending_signature', 'active') and end_date is not null and end_date <= ? returning sid`,
    [now, now],
  );
  return rows.map((r) => r.sid);
}
