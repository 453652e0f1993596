import type { EntityManager } from "@mikro-orm/postgresql";
import { uuidv7 } from "../domain/ids.ts";
import { AMOUNT_EPSILON, type Refusal, type UsageWindow, windowRefusal } from "./policy.ts";

/**
 * Increments a window's counter only when the result stays within its limits. The row lock taken by
 * `on conflict do update` serialises concurrent calls of one key on one window, in this process and in any other
 * instance on the same database, so 50 simultaneous calls against a limit of 10 let exactly 10 through.
 */
const CONSUME = `
insert into mcp_usage_counter as c (sid, api_key_id, "window", calls, amount_eur, created_at, updated_at)
values (?, ?, ?, ?, ?, ?, ?)
on conflict (api_key_id, "window") do update
   set calls = c.calls + excluded.calls,
       amount_eur = c.amount_eur + excluded.amount_eur,
       updated_at = excluded.updated_at
 where (?::bigint = 0 or c.calls + excluded.calls <= ?::bigint)
   and (?::float8 = 0 or c.amount_eur + excluded.amount_eur <= ?::float8 + ${AMOUNT_EPSILON})
returning c.calls`;

class LimitReached extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/**
 * Counts one call (and its amount) against every window, all or nothing: a transaction whose rows are always
 * locked in the same order (hour, day, month). Returns the refusal when a limit would be passed; then nothing
 * was counted.
 */
export async function consumeUsage(
  em: EntityManager,
  keyId: string,
  windows: UsageWindow[],
  now: Date,
): Promise<Refusal | null> {
  if (windows.length === 0) return null;
  for (const window of windows) {
    // A first insert never reaches the conditional update: an increment alone over a limit is refused here.
    const alone = windowRefusal(window, { calls: 0, amountEur: 0 });
    if (alone) return alone;
  }
  try {
    // On a replay inside another call's transaction this is a savepoint of it.
    await em.transactional(async (tx) => {
      for (const w of windows) {
        const params = [uuidv7(now), keyId, w.window, w.calls, w.amountEur, now, now];
        const rows = await tx.execute<unknown[]>(CONSUME, [
          ...params,
          w.callLimit,
          w.callLimit,
          w.amountLimit,
          w.amountLimit,
        ]);
        if (rows.length === 0) {
          const current = await tx.execute<{ calls: string; amount_eur: number }[]>(
            `select calls, amount_eur from mcp_usage_counter where api_key_id = ? and "window" = ?`,
            [keyId, w.window],
          );
          const row = current[0];
          const refusal = windowRefusal(w, { calls: Number(row?.calls ?? 0), amountEur: Number(row?.amount_eur ?? 0) });
          throw new LimitReached(refusal ?? windowRefusal(w, { calls: w.callLimit, amountEur: w.amountLimit })!);
        }
      }
    });
    return null;
  } catch (err) {
    if (err instanceof LimitReached) return err.refusal;
    throw err;
  }
}

/** Gives back the amount of a call that did not go through (the call itself still counts against call limits). */
export async function refundAmount(em: EntityManager, keyId: string, windows: UsageWindow[]): Promise<void> {
  for (const w of windows) {
    if (w.amountEur <= 0) continue;
    await em.execute(
      `update mcp_usage_counter set amount_eur = greatest(0, amount_eur - ?) where api_key_id = ? and "window" = ?`,
      [w.amountEur, keyId, w.window],
    );
  }
}
