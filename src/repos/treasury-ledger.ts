import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import { TreasuryTransactionEntity, type TreasuryTransactionRow } from "../../generated/entities.ts";
import { affected, sqlRows } from "../db/sql.ts";
import type { Cents } from "../domain/money.ts";
import { centsOf, moneyLiteral } from "./treasury-accounts.ts";

/**
 * Treasury balance moves. Every move is one conditional update that returns the balance after, made while the call
 * holds the row locks of every account it touches (`lockAccounts`, taken in sid order so two transfers between the
 * same accounts in opposite directions never deadlock); a debit adds `balance - pending_out >= amount`, so no
 * balance goes below what is reserved, and nothing is lost to a concurrent update. The caller writes the
 * TreasuryTransaction row with the returned balance in the same transaction.
 */

/** Locks the accounts' rows in sid order until the call's transaction ends; answers the sids found. */
export async function lockAccounts(em: EntityManager, accountIds: string[]): Promise<string[]> {
  const ids = [...new Set(accountIds)].sort();
  const found: string[] = [];
  // One statement per row, in order: a single `in (...) order by` may lock in another order on PostgreSQL.
  for (const id of ids) {
    const rows = await sqlRows<{ sid: string }>(em, `select sid from "treasury_account" where sid = ? for update`, [
      id,
    ]);
    if (rows[0]) found.push(rows[0].sid);
  }
  return found;
}

export interface Figures {
  balance: Cents;
  pendingOut: Cents;
}

/** Balance and reservation as they stand (after this call's own updates). */
export async function figuresOf(em: EntityManager, accountId: string): Promise<Figures | null> {
  const rows = await sqlRows<{ balance: string; pending_out: string }>(
    em,
    `select balance::text as balance, pending_out::text as pending_out from "treasury_account" where sid = ?`,
    [accountId],
  );
  const row = rows[0];
  return row ? { balance: centsOf(row.balance), pendingOut: centsOf(row.pending_out) } : null;
}

/** Takes `amount` from what is available (balance - pending_out): the balance after, or null when short. */
export async function debitAvailable(em: EntityManager, accountId: string, amount: Cents, now: Date) {
  const rows = await sqlRows<{ balance: string }>(
    em,
    `update "treasury_account" set balance = balance - ?, updated_at = ?
     where sid = ? and is_active and balance - pending_out >= ? returning balance::text as balance`,
    [moneyLiteral(amount), now, accountId, moneyLiteral(amount)],
  );
  return rows[0] ? centsOf(rows[0].balance) : null;
}

/** Takes a reserved `amount` (an approved transfer): balance and reservation both drop; null when not reserved. */
export async function debitReserved(em: EntityManager, accountId: string, amount: Cents, now: Date) {
  const rows = await sqlRows<{ balance: string }>(
    em,
    `update "treasury_account" set balance = balance - ?, pending_out = pending_out - ?, updated_at = ?
     where sid = ? and balance >= ? and pending_out >= ? returning balance::text as balance`,
    [moneyLiteral(amount), moneyLiteral(amount), now, accountId, moneyLiteral(amount), moneyLiteral(amount)],
  );
  return rows[0] ? centsOf(rows[0].balance) : null;
}

/** Adds `amount`: the balance after (the account must exist; the caller locked it). */
export async function credit(em: EntityManager, accountId: string, amount: Cents, now: Date): Promise<Cents> {
  const rows = await sqlRows<{ balance: string }>(
    em,
    `update "treasury_account" set balance = balance + ?, updated_at = ? where sid = ? returning balance::text as balance`,
    [moneyLiteral(amount), now, accountId],
  );
  if (!rows[0]) throw new Error(`treasury account ${accountId} vanished`);
  return centsOf(rows[0].balance);
}

/** Reserves `amount` of what is available for a pending transfer; false when short (nothing changed). */
export async function reserve(em: EntityManager, accountId: string, amount: Cents, now: Date): Promise<boolean> {
  const n = await affected(
    em,
    `update "treasury_account" set pending_out = pending_out + ?, updated_at = ?
     where sid = ? and is_active and balance - pending_out >= ?`,
    [moneyLiteral(amount), now, accountId, moneyLiteral(amount)],
  );
  return n === 1;
}

/** Releases a reservation (a cancelled or refused pending transfer). */
export async function release(em: EntityManager, accountId: string, amount: Cents, now: Date): Promise<void> {
  const n = await affected(
    em,
    `update "treasury_account" set pending_out = pending_out - ?, updated_at = ? where sid = ? and pending_out >= ?`,
    [moneyLiteral(amount), now, accountId, moneyLiteral(amount)],
  );
  if (n !== 1) throw new Error(`treasury account ${accountId}: reservation of ${amount} cents missing`);
}

export function insertLedgerRow(
  em: EntityManager,
  row: RequiredEntityData<TreasuryTransactionRow>,
): TreasuryTransactionRow {
  return em.create(TreasuryTransactionEntity, row);
}

/** An account's rows, newest first, at most `limit`. */
export function listLedger(em: EntityManager, accountId: string, limit: number): Promise<TreasuryTransactionRow[]> {
  return em.find(TreasuryTransactionEntity, { account_id: accountId }, { orderBy: { sid: "desc" }, limit });
}

/** Moves a transfer's ledger rows from `pending` to `to` (settlement of an external payout), with the chain's hash. */
export async function settleLedgerRows(
  em: EntityManager,
  fundTransferId: string,
  to: "confirmed" | "failed",
  transactionHash: string | null,
  now: Date,
): Promise<number> {
  return affected(
    em,
    `update "treasury_transaction" set status = ?, confirmed_at = ?, transaction_hash = ?, updated_at = ?
     where fund_transfer_id = ? and status = 'pending'`,
    [to, to === "confirmed" ? now : null, transactionHash, now, fundTransferId],
  );
}
