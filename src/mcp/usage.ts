import type { EntityManager } from "@mikro-orm/postgresql";
import { countIfWithin, findUsageCounter } from "../repos/mcp-usage-counters.ts";
import { AMOUNT_EPSILON, type Refusal, type UsageWindow, windowRefusal } from "./policy.ts";

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
        const increment = { keyId, ...w, tolerance: AMOUNT_EPSILON };
        if (await countIfWithin(tx, increment, now)) continue;
        const row = await findUsageCounter(tx, keyId, w.window);
        const refusal = windowRefusal(w, { calls: row?.calls ?? 0, amountEur: row?.amount_eur ?? 0 });
        throw new LimitReached(refusal ?? windowRefusal(w, { calls: w.callLimit, amountEur: w.amountLimit })!);
      }
    });
    return null;
  } catch (err) {
    if (err instanceof LimitReached) return err.refusal;
    throw err;
  }
}
