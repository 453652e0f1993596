import type { EntityManager } from "@mikro-orm/postgresql";
import { sqlRows } from "../db/sql.ts";
import { counterName, formattedId, MAX_ID_NUMBER } from "../domain/formatted-ids.ts";
import { uuidv7 } from "../domain/ids.ts";

/**
 * Company and cooperative ids (`<PREFIX>-<YYYY>-Y<6 digits>`, `...-P<6 digits>`) from the Counter row of the
 * prefix, year and kind. Unlike residents' counters this one rolls over: after 999,999 comes 1 again, and a number
 * whose id is still in use (the `zone_company_company_id_unique` index) is skipped. The counter upsert locks the
 * row until the call commits, so concurrent mints of one kind and year run one after the other, see every id the
 * earlier ones committed (READ COMMITTED), and a rolled-back call gives its number back: no gaps.
 */

/** Takes the next number of a rolling counter: 1 for a new row, then +1, and 1 after 999,999. */
async function takeRollingNumber(em: EntityManager, name: string, now: Date): Promise<number> {
  const rows = await sqlRows<{ value: string | number }>(
    em,
    `insert into counter (sid, name, value, created_at, updated_at) values (?, ?, 1, ?, ?)
     on conflict (name) do update
       set value = case when counter.value >= ? then 1 else counter.value + 1 end, updated_at = excluded.updated_at
     returning value`,
    [uuidv7(now), name, now, now, MAX_ID_NUMBER],
  );
  return Number(rows[0]?.value);
}

async function companyIdInUse(em: EntityManager, companyId: string): Promise<boolean> {
  const rows = await sqlRows(em, "select 1 as one from zone_company where company_id = ? limit 1", [companyId]);
  return rows.length > 0;
}

/**
 * The next free company id of `kind` (`Y` company, `P` cooperative) in `year`, inside the call's transaction.
 * Throws when every one of the 999,999 numbers of that year and kind is in use.
 */
export async function takeCompanyId(
  em: EntityManager,
  prefix: string,
  year: number,
  kind: "Y" | "P",
  now: Date,
): Promise<string> {
  const name = counterName(prefix, year, kind);
  for (let attempt = 0; attempt < MAX_ID_NUMBER; attempt++) {
    const id = formattedId(prefix, year, kind, await takeRollingNumber(em, name, now));
    if (!(await companyIdInUse(em, id))) return id;
  }
  throw new Error(`company ids exhausted: every number of ${name} is in use`);
}
