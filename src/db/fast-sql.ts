import type { PGlite } from "@electric-sql/pglite";
import type { Knex } from "@mikro-orm/knex";
import type { EntityManager } from "@mikro-orm/postgresql";
import type pg from "pg";
import { PGliteKnexDialect, runPgCompatQuery } from "./pglite-dialect.ts";

/**
 * Hot reads (the session lookup, generic CRUD get/list/find) and the ledger's statements without MikroORM's query
 * path: the statement goes straight to a connection of MikroORM's own knex pool, with its values as parameters
 * (`$1`, `$2` ...; never inlined into the text).
 *
 * - PostgreSQL: a named prepared statement (`{ name, text, values }`), parsed and planned once per connection,
 *   then only bound and executed; node-postgres remembers per connection which names it has parsed.
 * - PGlite: its `query(text, params)` on the one connection, with the parsers that make its rows look like
 *   node-postgres's (`runPgCompatQuery`, as the dialect itself runs every query).
 *
 * `em` decides the connection exactly as `em.execute` (`sqlRows`) does: inside the call's transaction when it has
 * one (its connection, so the statement sees the call's writes and rolls back with them), else any pooled
 * connection (waiting for one like any query; on PGlite, for the open transaction to end). Rows come back as
 * `sqlRows` returns them (the same connections and type parsers: timestamps, numeric and bigint as strings).
 */

/**
 * Statement texts -> names. node-postgres refuses one name for two texts on a connection, so a name is never
 * reused for another text. Past `max` distinct texts, statements run unnamed (parsed each time): call sites build
 * their text from a bounded set of shapes (`find` one per combination of the conditions given, in a canonical
 * order), but each name is a prepared statement every connection of the pool keeps for its life.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max: number) {}

  /** The name `text` is prepared under, or undefined once `max` texts have names. */
  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `fz_${this.names.size.toString(36)}`;
      this.names.set(text, name);
    }
    return name;
  }
}

export const MAX_NAMED_STATEMENTS = 1000;

/** One per process: a name stands for one text on every connection of every pool. */
export const statementNames = new StatementNames(MAX_NAMED_STATEMENTS);

/** The part of knex's client this module uses: its pool (or a transaction's single connection). */
interface KnexClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
}

type Transaction = Knex.Transaction & { client: KnexClient };

function rowsOnPglite<T>(pglite: PGlite, text: string, params: readonly unknown[]): Promise<T[]> {
  return runPgCompatQuery(pglite, text, params).then((res) => (Array.isArray(res) ? [] : res.rows) as T[]);
}

function rowsOnPg<T>(conn: pg.ClientBase, text: string, params: readonly unknown[]): Promise<T[]> {
  const name = statementNames.nameOf(text);
  const config = name === undefined ? { text, values: [...params] } : { name, text, values: [...params] };
  return conn.query(config).then((res) => res.rows as T[]);
}

/**
 * The rows of one parameterized statement (`$n` placeholders), as a named prepared statement on PostgreSQL.
 * Errors are MikroORM's `DriverException`s, as from `sqlRows`.
 */
export async function preparedRows<T extends object>(
  em: EntityManager,
  text: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  const tx = em.getTransactionContext<Transaction>();
  if (tx?.isCompleted()) throw new Error("Transaction query already complete");
  const client: KnexClient & object = tx ? tx.client : (em.getConnection().getKnex().client as KnexClient);
  const conn = await client.acquireConnection();
  try {
    return client instanceof PGliteKnexDialect
      ? await rowsOnPglite<T>(conn as PGlite, text, params)
      : await rowsOnPg<T>(conn as pg.ClientBase, text, params);
  } catch (err) {
    throw em.getDriver().convertException(err as Error);
  } finally {
    void client.releaseConnection(conn);
  }
}
