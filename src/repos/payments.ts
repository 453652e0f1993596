import type { EntityManager } from "@mikro-orm/postgresql";
import { PaymentEntity, type PaymentRow } from "../../generated/entities.ts";
import type { PaymentStatus } from "../../generated/types.ts";
import { affected, sqlRows } from "../db/sql.ts";

/**
 * The Payment table (issue 15). Rows are read plain (no identity map); every state move is one conditional update
 * on the status the decision was made on, whose affected count decides a race (webhook against administrator,
 * sweep against webhook): the loser touches nothing.
 */

export type NewPayment = Omit<PaymentRow, "created_at" | "updated_at">;

export async function insertPayment(em: EntityManager, row: NewPayment, now: Date): Promise<PaymentRow> {
  const full: PaymentRow = { ...row, created_at: now, updated_at: now };
  await em.insert(PaymentEntity, full);
  return full;
}

/**
 * Inserts an automatic top-up payment unless the user has one open (the partial unique index open_auto_topup
 * decides, also between concurrent debits): the row, or null when one is open.
 */
export async function insertAutoTopUp(em: EntityManager, row: NewPayment, now: Date): Promise<PaymentRow | null> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `insert into "payment" (sid, user_id, entity_id, entity_type, payment_type, amount, currency, external_id,
       payment_purpose, auto_renewal, auto_topup, status, expires_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, false, true, 'pending', ?, ?, ?)
     on conflict ("user_id") where "auto_topup" = true and "status" in ('pending', 'confirming') do nothing
     returning sid`,
    [
      row.sid,
      row.user_id,
      row.entity_id,
      row.entity_type,
      row.payment_type,
      row.amount.toFixed(2),
      row.currency,
      row.external_id,
      row.payment_purpose,
      row.expires_at,
      now,
      now,
    ],
  );
  return rows.length > 0 ? { ...row, created_at: now, updated_at: now } : null;
}

export function findPayment(em: EntityManager, sid: string): Promise<PaymentRow | null> {
  return em.findOne(PaymentEntity, { sid }, { disableIdentityMap: true });
}

/** The payment a provider webhook names: a mobile-money order id, or the card provider's payment id. */
export function findByProviderOrder(em: EntityManager, orderId: string): Promise<PaymentRow | null> {
  return em.findOne(
    PaymentEntity,
    { $or: [{ mobilepay_order_id: orderId }, { external_id: orderId, payment_type: "cardpsp" }] },
    { disableIdentityMap: true },
  );
}

export function openAutoTopUp(em: EntityManager, userId: string): Promise<PaymentRow | null> {
  return em.findOne(
    PaymentEntity,
    { user_id: userId, auto_topup: true, status: { $in: ["pending", "confirming"] } },
    { disableIdentityMap: true },
  );
}

export type PaymentChanges = Partial<
  Pick<
    PaymentRow,
    | "status"
    | "confirmed_at"
    | "sender_address"
    | "transaction_hash"
    | "confirmation_count"
    | "external_id"
    | "mobilepay_order_id"
  >
>;

/** Applies `changes` when the payment is still in one of `from`: the number of rows moved (0 or 1). */
export function updatePaymentIf(
  em: EntityManager,
  sid: string,
  from: readonly PaymentStatus[],
  changes: PaymentChanges,
  now: Date,
): Promise<number> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = entries.map(([k]) => `"${k}" = ?`).join(", ");
  return affected(
    em,
    `update "payment" set ${sets}${sets ? ", " : ""}updated_at = ?
     where sid = ? and status in (${from.map(() => "?").join(", ")})`,
    [...entries.map(([, v]) => v), now, sid, ...from],
  );
}

/** Whether another payment already carries this transaction hash. */
export async function hashUsedElsewhere(em: EntityManager, hash: string, sid: string): Promise<boolean> {
  const rows = await sqlRows(em, `select 1 from "payment" where transaction_hash = ? and sid <> ? limit 1`, [
    hash,
    sid,
  ]);
  return rows.length > 0;
}

/** Open payments past their expiry move to `expired`: the sids moved. */
export async function expireOverdue(em: EntityManager, now: Date): Promise<string[]> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `update "payment" set status = 'expired', updated_at = ?
     where status in ('pending', 'confirming') and expires_at <= ? returning sid`,
    [now, now],
  );
  return rows.map((r) => r.sid);
}

/** Open crypto payments before their expiry, oldest first (the chain watcher's work list). */
export function openCryptoPayments(em: EntityManager, now: Date, limit: number): Promise<PaymentRow[]> {
  return em.find(
    PaymentEntity,
    {
      payment_type: { $in: ["bitcoin", "ethereum"] },
      status: { $in: ["pending", "confirming"] },
      expires_at: { $gt: now },
    },
    { orderBy: { created_at: "asc", sid: "asc" }, limit, disableIdentityMap: true },
  );
}

/** Automatic top-ups inserted by a debit and not charged yet (no provider id), oldest first. */
export function queuedAutoTopUps(em: EntityManager, now: Date, limit: number): Promise<PaymentRow[]> {
  return em.find(
    PaymentEntity,
    { auto_topup: true, status: "pending", external_id: "", expires_at: { $gt: now } },
    { orderBy: { created_at: "asc", sid: "asc" }, limit, disableIdentityMap: true },
  );
}

/** Marks a queued automatic top-up as being charged (one charger wins): whether this caller claimed it. */
export async function claimQueuedTopUp(em: EntityManager, sid: string, marker: string, now: Date): Promise<boolean> {
  const n = await affected(
    em,
    `update "payment" set external_id = ?, updated_at = ? where sid = ? and status = 'pending' and external_id = ''`,
    [marker, now, sid],
  );
  return n > 0;
}

/**
 * The debit hook in one statement: when the wallet has automatic top-up on with a saved card and `balanceAfter` is
 * below its threshold, inserts the pending auto top-up (its amount from the wallet) unless one is open (the partial
 * unique index open_auto_topup). Whether a payment was queued.
 */
export async function queueAutoTopUpIfDue(
  em: EntityManager,
  sid: string,
  userId: string,
  balanceAfter: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const rows = await sqlRows<{ sid: string }>(
    em,
    `insert into "payment" (sid, user_id, entity_id, entity_type, payment_type, amount, currency, external_id,
       payment_purpose, auto_renewal, auto_topup, status, expires_at, created_at, updated_at)
     select ?, user_id, user_id, 'resident', 'cardpsp', auto_topup_amount, 'USD', '', 'credit_topup', false, true,
       'pending', ?, ?, ?
     from "credit_balance"
     where user_id = ? and auto_topup_enabled and cardpsp_payment_method_id is not null and auto_topup_amount > 0
       and ?::numeric < auto_topup_threshold
     on conflict ("user_id") where "auto_topup" = true and "status" in ('pending', 'confirming') do nothing
     returning sid`,
    [sid, expiresAt, now, now, userId, balanceAfter],
  );
  return rows.length > 0;
}
