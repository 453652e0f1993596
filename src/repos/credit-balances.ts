import type { EntityManager } from "@mikro-orm/postgresql";
import { CreditBalanceEntity, type CreditBalanceRow } from "../../generated/entities.ts";
import { preparedRows } from "../db/fast-sql.ts";
import { affected, sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import { type Cents, fromCents, toCents } from "../domain/money.ts";

/**
 * The CreditBalance table: one wallet per user. Balances move only here, each by one conditional update that
 * returns the new balance (the row lock it takes orders concurrent moves of one wallet: no lost update).
 */

/** Money as a numeric literal the database reads exactly. */
const money = (cents: Cents): string => fromCents(cents).toFixed(2);

/** Creates the user's zero wallet unless it exists (one statement: concurrent first reads make one row). */
export async function ensureWallet(em: EntityManager, userId: string, now: Date): Promise<void> {
  await affected(
    em,
    `insert into "credit_balance" (sid, user_id, balance, lifetime_earned, lifetime_spent, auto_topup_enabled,
       auto_topup_amount, auto_topup_threshold, created_at, updated_at)
     values (?, ?, 0, 0, 0, false, 0, 0, ?, ?) on conflict (user_id) do nothing`,
    [uuidv7(now), userId, now, now],
  );
}

export function findWallet(em: EntityManager, userId: string): Promise<CreditBalanceRow | null> {
  return em.findOne(CreditBalanceEntity, { user_id: userId }, { refresh: true });
}

/** A debit's outcome: the balance after, and whether it fell below the wallet's automatic top-up threshold. */
export interface Debit {
  balance: Cents;
  /** Auto top-up is on with a saved card and the balance is now below its threshold (payments.ts re-checks). */
  topUpDue: boolean;
}

/** Every debit runs it (a prepared statement in the call's transaction: src/db/fast-sql.ts). */
const DEBIT = `update "credit_balance" set balance = balance - $1, lifetime_spent = lifetime_spent + $1, updated_at = $2
  where user_id = $3 and balance >= $1
  returning balance::text as balance, (auto_topup_enabled and cardpsp_payment_method_id is not null
    and auto_topup_amount > 0 and balance < auto_topup_threshold) as top_up_due`;

/**
 * Debits `amount` cents when the balance covers it, or null when it does not (nothing written). A missing wallet
 * holds nothing. One statement: the automatic top-up condition comes back with the balance, so a debit that leaves
 * the balance above the threshold costs no further statement.
 */
export async function debitWallet(em: EntityManager, userId: string, amount: Cents, now: Date): Promise<Debit | null> {
  const rows = await preparedRows<{ balance: string; top_up_due: boolean }>(em, DEBIT, [money(amount), now, userId]);
  const row = rows[0];
  return row ? { balance: toCents(Number(row.balance)), topUpDue: row.top_up_due === true } : null;
}

/** Credits `amount` cents (creating the wallet if needed): the balance after. */
export async function creditWallet(
  em: EntityManager,
  userId: string,
  amount: Cents,
  now: Date,
  options: { topUp?: boolean } = {},
): Promise<Cents> {
  await ensureWallet(em, userId, now);
  const rows = await sqlRows<{ balance: string }>(
    em,
    `update "credit_balance" set balance = balance + ?, lifetime_earned = lifetime_earned + ?, updated_at = ?
       ${options.topUp ? ", last_top_up_at = ?" : ""}
     where user_id = ? returning balance::text as balance`,
    options.topUp ? [money(amount), money(amount), now, now, userId] : [money(amount), money(amount), now, userId],
  );
  const row = rows[0];
  if (!row) throw new Error(`wallet of ${userId} vanished`);
  return toCents(Number(row.balance));
}

/** Locks the user's wallet row until the call's transaction ends (serializes checks across ledger rows). */
export async function lockWallet(em: EntityManager, userId: string, now: Date): Promise<void> {
  await ensureWallet(em, userId, now);
  await sqlRows(em, `select 1 from "credit_balance" where user_id = ? for update`, [userId]);
}

/** Takes expired bonus credits off a wallet (not spending: lifetime_spent stays); the balance after, or null. */
export async function expireFromWallet(
  em: EntityManager,
  userId: string,
  amount: Cents,
  now: Date,
): Promise<Cents | null> {
  const rows = await sqlRows<{ balance: string }>(
    em,
    `update "credit_balance" set balance = balance - ?, updated_at = ?
     where user_id = ? and balance >= ? returning balance::text as balance`,
    [money(amount), now, userId, money(amount)],
  );
  const row = rows[0];
  return row ? toCents(Number(row.balance)) : null;
}
