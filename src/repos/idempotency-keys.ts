import type { EntityManager } from "@mikro-orm/postgresql";
import { affected, dateOf, sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/** The IdempotencyKey table: the answer kept for a write sent with an Idempotency-Key (src/rpc/idempotency.ts). */

export interface KeyRef {
  scope: string;
  key: string;
}

export interface KeptAnswer {
  sid: string;
  method: string;
  fingerprint: string;
  /** Sealed JSON; '' while the call that claimed the key has not committed (only that call sees this). */
  answer: string;
  expiresAt: Date;
}

/**
 * Claims the key for a call: one row, inserted in the call's transaction. A concurrent call with the same key waits
 * here (the unique index) until the first one commits or rolls back; 1 when this call claimed it, 0 when a row
 * stands.
 */
export function claimKey(
  em: EntityManager,
  ref: KeyRef,
  row: { method: string; fingerprint: string; answer: string; expiresAt: Date },
  now: Date,
): Promise<number> {
  return affected(
    em,
    `insert into "idempotency_key" (sid, scope, idempotency_key, method, fingerprint, answer, expires_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (scope, idempotency_key) do nothing`,
    [uuidv7(now), ref.scope, ref.key, row.method, row.fingerprint, row.answer, row.expiresAt, now, now],
  );
}

export async function findKey(em: EntityManager, ref: KeyRef): Promise<KeptAnswer | null> {
  const rows = await sqlRows<{
    sid: string;
    method: string;
    fingerprint: string;
    answer: string;
    expires_at: Date | string;
  }>(
    em,
    `select sid, method, fingerprint, answer, expires_at from "idempotency_key" where scope = ? and idempotency_key = ?`,
    [ref.scope, ref.key],
  );
  const row = rows[0];
  return row ? { ...row, expiresAt: dateOf(row.expires_at) } : null;
}

/** The claiming call's answer, written in its transaction just before it commits. */
export function keepAnswer(em: EntityManager, ref: KeyRef, answer: string, now: Date): Promise<number> {
  return affected(
    em,
    `update "idempotency_key" set answer = ?, updated_at = ? where scope = ? and idempotency_key = ?`,
    [answer, now, ref.scope, ref.key],
  );
}

/** An expired row, so the key can be claimed again (another request may use it from then on). */
export function dropKey(em: EntityManager, sid: string): Promise<number> {
  return affected(em, `delete from "idempotency_key" where sid = ?`, [sid]);
}

/** The sweep: rows kept past their 24 hours. */
export function dropExpiredKeys(em: EntityManager, now: Date): Promise<number> {
  return affected(em, `delete from "idempotency_key" where expires_at <= ?`, [now]);
}
