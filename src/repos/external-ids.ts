import { randomBytes } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { sqlRows } from "../db/sql.ts";

/** The ExternalIdState singleton's fixed key: one row, one global counter for every entity type. */
const SINGLETON = "external-id-state";

/**
 * Takes the next value of the global external-id counter (first mint = 1) and the mint key, in one atomic upsert
 * inside the call's transaction (the row lock orders concurrent mints). The key is made with the row, at the
 * first mint, and never changes.
 */
export async function takeExternalCounter(em: EntityManager, now: Date): Promise<{ counter: number; key: Buffer }> {
  const rows = await sqlRows<{ taken: string | number; mint_key: string }>(
    em,
    `insert into external_id_state (sid, next_counter, mint_key, created_at, updated_at) values (?, 2, ?, ?, ?)
     on conflict (sid) do update set next_counter = external_id_state.next_counter + 1, updated_at = excluded.updated_at
     returning next_counter - 1 as taken, mint_key`,
    [SINGLETON, randomBytes(32).toString("hex"), now, now],
  );
  const row = rows[0];
  if (!row) throw new Error("external id counter: no row returned");
  return { counter: Number(row.taken), key: Buffer.from(row.mint_key, "hex") };
}
