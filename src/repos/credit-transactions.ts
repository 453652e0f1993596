import type { EntityManager } from "@mikro-orm/postgresql";
import { CreditTransactionEntity, type CreditTransactionRow } from "../../generated/entities.ts";
import { preparedRows } from "../db/fast-sql.ts";
import { sqlRows } from "../db/sql.ts";
import { type Cents, fromCents, toCents } from "../domain/money.ts";

/** The CreditTransaction table: the wallet ledger, one row per balance change (amount positive, tx_type the way). */

export type LedgerRow = Omit<CreditTransactionRow, "updated_at">;

const COLUMNS = `sid, user_id, tx_type, amount, balance_after, currency, description, reference_type, reference_id,
  external_call_id, status, created_at, updated_at`;

function values(row: LedgerRow): unknown[] {
  return [
    row.sid,
    row.user_id,
    row.tx_type,
    row.amount.toFixed(2),
    row.balance_after.toFixed(2),
    row.currency,
    row.description,
    row.reference_type,
    row.reference_id,
    row.external_call_id,
    row.status,
    row.created_at,
    row.created_at,
  ];
}

const INSERT = `insert into "credit_transaction" (${COLUMNS})
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;

/** Appends a ledger row now (native insert, a prepared statement in the call's transaction: src/db/fast-sql.ts). */
export async function insertLedgerRow(em: EntityManager, row: LedgerRow): Promise<void> {
  await preparedRows(em, INSERT, values(row));
}

/**
 * Claims an external_call_id with the row (balance_after filled in later by `setBalanceAfter`): true when this
 * call inserted it; false when the id is taken. A concurrent claimant waits on the unique index until the
 * first call's transaction ends, then sees its row (or takes the id if it rolled back).
 */
export async function claimExternalCall(em: EntityManager, row: LedgerRow): Promise<boolean> {
  const rows = await sqlRows(
    em,
    `insert into "credit_transaction" (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (external_call_id) do nothing returning sid`,
    values(row),
  );
  return rows.length > 0;
}

export async function setBalanceAfter(em: EntityManager, sid: string, balanceAfter: Cents): Promise<void> {
  await sqlRows(em, `update "credit_transaction" set balance_after = ? where sid = ?`, [
    fromCents(balanceAfter).toFixed(2),
    sid,
  ]);
}

export function findByExternalCallId(em: EntityManager, externalCallId: string): Promise<CreditTransactionRow | null> {
  return em.findOne(CreditTransactionEntity, { external_call_id: externalCallId }, { refresh: true });
}

/** The top-up row a payment funded, if any. */
export function findTopUpOfPayment(em: EntityManager, paymentId: string): Promise<CreditTransactionRow | null> {
  return em.findOne(CreditTransactionEntity, { tx_type: "top_up", reference_id: paymentId });
}

/** Cents deducted and refunded so far for one reference of a user's wallet. */
export async function referenceTotals(
  em: EntityManager,
  userId: string,
  referenceType: string,
  referenceId: string,
): Promise<{ deducted: Cents; refunded: Cents }> {
  const rows = await sqlRows<{ tx_type: string; total: string }>(
    em,
    `select tx_type, sum(amount)::text as total from "credit_transaction"
     where user_id = ? and reference_type = ? and reference_id = ? and tx_type in ('deduction', 'refund')
       and status = 'completed'
     group by tx_type`,
    [userId, referenceType, referenceId],
  );
  const total = (type: string) => toCents(Number(rows.find((r) => r.tx_type === type)?.total ?? 0));
  return { deducted: total("deduction"), refunded: total("refund") };
}

/** One page of a user's ledger, newest first. */
export async function pageOfLedger(
  em: EntityManager,
  userId: string,
  limit: number,
  offset: number,
): Promise<{ rows: CreditTransactionRow[]; total: number }> {
  const [rows, total] = await em.findAndCount(
    CreditTransactionEntity,
    { user_id: userId },
    { orderBy: { created_at: "desc", sid: "desc" }, limit, offset },
  );
  return { rows, total };
}

/** One wallet's ledger oldest first, for the expiry rule (amounts as cents). */
export async function walletLedger(em: EntityManager, userId: string): Promise<CreditTransactionRow[]> {
  return em.find(CreditTransactionEntity, { user_id: userId }, { orderBy: { created_at: "asc", sid: "asc" } });
}

/** Wallets holding a bonus granted at or before `grantedBefore` that no expiry row closed yet. */
export async function walletsWithExpiringBonus(em: EntityManager, grantedBefore: Date): Promise<string[]> {
  const rows = await sqlRows<{ user_id: string }>(
    em,
    `select distinct b.user_id from "credit_transaction" b
     where b.tx_type = 'bonus' and b.status = 'completed' and b.created_at <= ?
       and not exists (select 1 from "credit_transaction" x where x.tx_type = 'expiry' and x.reference_id = b.sid)`,
    [grantedBefore],
  );
  return rows.map((r) => r.user_id);
}
