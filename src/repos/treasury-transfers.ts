import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { FundTransferEntity, type FundTransferRow } from "../../generated/entities.ts";
import type { FundTransferStatus } from "../../generated/types.ts";
import { countRows, sqlRows } from "../db/sql.ts";
import { TREASURY_LIST_LIMIT } from "../domain/treasury.ts";

/** The FundTransfer table: internal and external transfers and their state. */

export function findTransfer(em: EntityManager, transferId: string): Promise<FundTransferRow | null> {
  return em.findOne(FundTransferEntity, { sid: transferId }, { refresh: true });
}

export function insertTransfer(em: EntityManager, row: RequiredEntityData<FundTransferRow>): FundTransferRow {
  return em.create(FundTransferEntity, row);
}

/** Transfers from or to the account, newest first, optionally in one status. */
export function listTransfers(
  em: EntityManager,
  accountId: string,
  status: FundTransferStatus | undefined,
): Promise<FundTransferRow[]> {
  return em.find(
    FundTransferEntity,
    {
      $or: [{ from_account_id: accountId }, { to_account_id: accountId }],
      ...(status !== undefined ? { status } : {}),
    },
    { orderBy: { sid: "desc" }, limit: TREASURY_LIST_LIMIT, refresh: true },
  );
}

/** Transfers still open (pending or processing) from or to the account. */
export function openTransferCount(em: EntityManager, accountId: string): Promise<number> {
  return countRows(
    em,
    `select count(*) as n from "fund_transfer"
     where (from_account_id = ? or to_account_id = ?) and status in ('pending', 'processing')`,
    [accountId, accountId],
  );
}

export type TransferMoveFields = Partial<
  Pick<FundTransferRow, "approved_by" | "transaction_id" | "completed_at" | "provider_ref">
>;

/** The conditional move `from -> to`: true when this call made it. */
export async function moveTransfer(
  em: EntityManager,
  transferId: string,
  from: FundTransferStatus,
  to: FundTransferStatus,
  fields: TransferMoveFields,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(
    FundTransferEntity,
    { sid: transferId, status: from },
    { ...fields, status: to, updated_at: now },
  );
  return n === 1;
}

/** External transfers waiting for the payout provider, oldest first. */
export async function processingTransfers(em: EntityManager, limit: number): Promise<string[]> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `select sid from "fund_transfer" where status = 'processing' order by sid limit ?`,
    [limit],
  );
  return rows.map((r) => r.sid);
}
