import type { EntityManager } from "@mikro-orm/postgresql";
import {
  CompanyRoleEntity,
  type CompanyRoleRow,
  ShareTransferEntity,
  type ShareTransferRow,
} from "../../generated/entities.ts";
import type { ShareholderData, ShareTransferStatus } from "../../generated/types.ts";
import { affected, sqlRows } from "../db/sql.ts";
import { fromMicro } from "../domain/units.ts";

/**
 * The ShareTransfer table and the cap-table writes a transfer makes (ZoneCompany.shareholders). Every change of a
 * company's units happens while the call holds the company row's lock (`lockCapTable`), so initiations and
 * completions of one company run one after the other and each sees the units the previous one left.
 */

/** The company's cap table, its row locked until the call's transaction ends; null when there is no such company. */
export async function lockCapTable(em: EntityManager, companyId: string): Promise<ShareholderData[] | null> {
  const rows = await sqlRows<{ shareholders: ShareholderData[] | string }>(
    em,
    `select shareholders from "zone_company" where company_id = ? for update`,
    [companyId],
  );
  const row = rows[0];
  if (!row) return null;
  return typeof row.shareholders === "string" ? JSON.parse(row.shareholders) : row.shareholders;
}

/** Stores the cap table (the caller holds the row lock). */
export async function writeCapTable(
  em: EntityManager,
  companyId: string,
  table: ShareholderData[],
  now: Date,
): Promise<void> {
  const n = await affected(
    em,
    `update "zone_company" set shareholders = ?::jsonb, updated_at = ? where company_id = ?`,
    [JSON.stringify(table), now, companyId],
  );
  if (n !== 1) throw new Error(`company ${companyId} vanished`);
}

/** Units the holder has committed to transfers not yet completed or cancelled (pending, approved), summed exactly. */
export async function outstandingUnits(em: EntityManager, companyId: string, fromResidentId: string): Promise<number> {
  const rows = await sqlRows<{ units: number | string | null }>(
    em,
    `select sum(round(units * 1000000)::bigint) as units from "share_transfer"
     where company_id = ? and from_resident_id = ? and status in ('pending', 'approved')`,
    [companyId, fromResidentId],
  );
  return fromMicro(Number(rows[0]?.units ?? 0));
}

export async function insertTransfer(em: EntityManager, row: ShareTransferRow): Promise<ShareTransferRow> {
  await em.insert(ShareTransferEntity, row);
  return row;
}

export function findTransfer(em: EntityManager, sid: string): Promise<ShareTransferRow | null> {
  return em.findOne(ShareTransferEntity, { sid }, { disableIdentityMap: true });
}

/**
 * Moves the transfer to `to` (with the fields given) only while its status is one of `from`: the affected count
 * decides a race; the row after the move, or null when another move won.
 */
export async function moveTransfer(
  em: EntityManager,
  sid: string,
  from: readonly ShareTransferStatus[],
  to: ShareTransferStatus,
  fields: Partial<
    Pick<ShareTransferRow, "to_signature" | "approved_at" | "completed_at" | "cancelled_at" | "rejected_at">
  >,
  now: Date,
): Promise<ShareTransferRow | null> {
  const moved = await em.nativeUpdate(
    ShareTransferEntity,
    { sid, status: { $in: [...from] } },
    { ...fields, status: to, updated_at: now },
  );
  return moved === 1 ? findTransfer(em, sid) : null;
}

/** The most transfers a list answers. */
export const TRANSFER_LIST_LIMIT = 1000;

/** A company's transfers, newest first, optionally in one status. */
export function listTransfers(
  em: EntityManager,
  companyId: string,
  status: ShareTransferStatus | undefined,
): Promise<ShareTransferRow[]> {
  return em.find(
    ShareTransferEntity,
    { company_id: companyId, ...(status ? { status } : {}) },
    { orderBy: { created_at: "desc", sid: "desc" }, limit: TRANSFER_LIST_LIMIT, disableIdentityMap: true },
  );
}

/** The subject's open role of this kind in the company at `at` (valid_from passed, not closed), or null. */
export function openRoleOf(
  em: EntityManager,
  companyId: string,
  subjectId: string,
  role: CompanyRoleRow["role"],
  at: Date,
): Promise<CompanyRoleRow | null> {
  return em.findOne(
    CompanyRoleEntity,
    { company_id: companyId, subject_id: subjectId, role, valid_to: null, valid_from: { $lte: at } },
    { orderBy: { valid_from: "desc" }, disableIdentityMap: true },
  );
}
