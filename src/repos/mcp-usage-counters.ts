import type { EntityManager } from "@mikro-orm/postgresql";
import { McpUsageCounterEntity, type McpUsageCounterRow } from "../../generated/entities.ts";
import { sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/** The McpUsageCounter table: calls and EUR spent per API key and calendar window (`day:2026-11-23` ...). */

/**
 * Increments a window's counter only when the result stays within its limits (0 = no limit; amounts compared
 * with `tolerance`). The row lock taken by `on conflict do update` serialises concurrent calls of one key on one
 * window, in this process and in any other instance on the same database. False when a limit would be passed:
 * then nothing was counted.
 */
const COUNT_IF_WITHIN = `
insert into mcp_usage_counter as c (sid, api_key_id, "window", calls, amount_eur, created_at, updated_at)
values (?, ?, ?, ?, ?, ?, ?)
on conflict (api_key_id, "window") do update
   set calls = c.calls + excluded.calls,
       amount_eur = c.amount_eur + excluded.amount_eur,
       updated_at = excluded.updated_at
 where (?::bigint = 0 or c.calls + excluded.calls <= ?::bigint)
   and (?::float8 = 0 or c.amount_eur + excluded.amount_eur <= ?::float8 + ?::float8)
returning c.calls`;

export interface CounterIncrement {
  keyId: string;
  window: string;
  calls: number;
  amountEur: number;
  callLimit: number;
  amountLimit: number;
  tolerance: number;
}

export async function countIfWithin(em: EntityManager, inc: CounterIncrement, now: Date): Promise<boolean> {
  const rows = await sqlRows<Pick<McpUsageCounterRow, "calls">>(em, COUNT_IF_WITHIN, [
    uuidv7(now),
    inc.keyId,
    inc.window,
    inc.calls,
    inc.amountEur,
    now,
    now,
    inc.callLimit,
    inc.callLimit,
    inc.amountLimit,
    inc.amountLimit,
    inc.tolerance,
  ]);
  return rows.length > 0;
}

/** The counter as stored now (a snapshot: it moves under concurrent calls). */
export function findUsageCounter(em: EntityManager, keyId: string, window: string) {
  return em.findOne(McpUsageCounterEntity, { api_key_id: keyId, window }, { disableIdentityMap: true });
}
