import type { EntityManager } from "@mikro-orm/postgresql";
import { sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/**
 * Counter rows: one named sequence per prefix, year and id kind (`FZ-2026-RA`). Taking a number is one atomic
 * upsert inside the call's transaction: the row stays locked until the call commits, so concurrent calls are
 * numbered one after the other, and a call that rolls back gives its number back (no gaps from refusals).
 */
export async function takeNumber(em: EntityManager, name: string, now: Date): Promise<number> {
  const rows = await sqlRows<{ value: string | number }>(
    em,
    `insert into counter (sid, name, value, created_at, updated_at) values (?, ?, 1, ?, ?)
     on conflict (name) do update set value = counter.value + 1, updated_at = excluded.updated_at
     returning value`,
    [uuidv7(now), name, now, now],
  );
  return Number(rows[0]?.value);
}
