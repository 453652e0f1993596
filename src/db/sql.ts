import type { EntityManager } from "@mikro-orm/postgresql";

/**
 * Raw SQL on `em`: inside the call's transaction when it has one (never `em.getConnection().execute`, which
 * would run on another pooled connection, outside the transaction, and wait forever on PGlite's single one).
 * `?` placeholders; rows as the driver returns them (numeric, bigint and timestamp columns as strings, on both
 * databases): map them with the helpers below or read typed rows through `em.find`.
 */
export function sqlRows<T extends object>(em: EntityManager, text: string, params: readonly unknown[] = []) {
  return em.execute<T[]>(text, [...params], "all");
}

/** Rows a conditional update or delete touched: the count decides who won a race (`where status = from`). */
export async function affected(em: EntityManager, text: string, params: readonly unknown[] = []): Promise<number> {
  const res = await em.execute<{ affectedRows?: number; rowCount?: number }>(text, [...params], "run");
  return Number(res.affectedRows ?? res.rowCount ?? 0);
}

/** A count(*) result: `select count(*) as n ...`. */
export async function countRows(em: EntityManager, text: string, params: readonly unknown[] = []): Promise<number> {
  const rows = await sqlRows<{ n: string | number }>(em, text, params);
  return Number(rows[0]?.n ?? 0);
}

/** A timestamp column read by raw SQL, as a Date. */
export function dateOf(value: Date | string): Date;
export function dateOf(value: Date | string | null): Date | null;
export function dateOf(value: Date | string | null): Date | null {
  return value === null ? null : value instanceof Date ? value : new Date(value);
}

/**
 * A typed row's shape as raw SQL returns it: timestamp columns may come back as strings (map them with `dateOf`).
 * For the joins the ORM cannot express; everything else reads typed rows through `em.find`. Numeric and bigint
 * columns are strings too: select them with a cast such as `::float8`, or read them through the entity.
 */
export type FromSql<T> = {
  [K in keyof T]: T[K] extends Date ? Date | string : T[K] extends Date | null ? Date | string | null : T[K];
};
