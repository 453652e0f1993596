/**
 * MikroORM 6 (PostgreSqlDriver) on embedded PGlite.
 *
 * Three small pieces, each a subclass of the stock PostgreSQL one:
 *  - `PGliteKnexDialect` extends MikroORM's `PostgreSqlKnexDialect` (itself knex's `Client_PG` from the knex copy
 *    that @mikro-orm/knex bundles and monkey-patches). Only the "talk to the driver" methods change: the one
 *    connection is the PGlite instance, queries go to `exec` (simple protocol, multi-statement) or `query`
 *    (extended protocol, when there are bindings), and results are reshaped to what node-postgres returns.
 *  - `PGliteConnection` extends `PostgreSqlConnection` and builds its knex with that dialect, pool 1..1.
 *  - `PGliteDriver` extends `PostgreSqlDriver` and swaps the connection. Everything else (platform, schema
 *    helper, exception converter, migrations) is the stock PostgreSQL code.
 *
 * Modelled on knex-pglite 0.14 but not built on it: knex-pglite extends the top-level knex 3.3 while MikroORM
 * uses (and patches) its own knex 3.2 copy, it refuses any `pool` option (MikroORM always passes one), and it sends
 * everything through `query`, which cannot run multi-statement SQL. See docs/db.md.
 *
 * Pass the PGlite instance through `driverOptions: { pglite }`; the caller owns it (closes it after `orm.close()`).
 * Without one an in-memory PGlite is created and closed with the pool.
 */
import { Buffer } from "node:buffer";
import { PGlite, type Results, types } from "@electric-sql/pglite";
import type { Configuration } from "@mikro-orm/core";
import { type Knex, PostgreSqlKnexDialect } from "@mikro-orm/knex";
import { PostgreSqlConnection, PostgreSqlDriver } from "@mikro-orm/postgresql";

type Parser = (value: string) => unknown;
const identity: Parser = (value) => value;
const arrayOf =
  (element: Parser, arrayOid: number): Parser =>
  (value) =>
    types.arrayParser(value, element, arrayOid);
const byteaParser = types.parsers[types.BYTEA] as Parser;
const bytea: Parser = (value) => Buffer.from(byteaParser(value) as Uint8Array);

/**
 * Per-query parser overrides so results look exactly like node-postgres *as configured by MikroORM's
 * PostgreSqlConnection*:
 *  - date/timestamp/timestamptz/interval (and their arrays) stay strings; MikroORM's DateTimeType turns them into
 *    `Date` (honouring `forceUtcTimezone`), the same code path as on PostgreSQL.
 *  - int8 stays a string (node-postgres default; PGlite would give number/bigint), numeric is a string in both.
 *  - bytea is a Buffer (PGlite gives a Uint8Array).
 * json/jsonb, bool, int2/int4, float4/float8, text[] etc. already parse like node-postgres.
 * Array parsers are listed explicitly: PGlite's built-in array parsers look element parsers up on the instance,
 * not in the per-query overrides.
 */
export const PG_COMPAT_PARSERS: Record<number, Parser> = {
  1082: identity, // date
  1114: identity, // timestamp
  1184: identity, // timestamptz
  1186: identity, // interval
  1182: arrayOf(identity, 1182), // date[]
  1115: arrayOf(identity, 1115), // timestamp[]
  1185: arrayOf(identity, 1185), // timestamptz[]
  1187: arrayOf(identity, 1187), // interval[]
  20: identity, // int8
  1016: arrayOf(identity, 1016), // int8[]
  17: bytea, // bytea
  1001: arrayOf(bytea, 1001), // bytea[]
};

/** node-postgres `Result` shape, as knex's Client_PG.processResponse and MikroORM's transformRawResult expect. */
interface PgLikeResult {
  command: string;
  rowCount: number | null;
  rows: Record<string, unknown>[];
  fields: { name: string; dataTypeID: number }[];
}

function toPgResult(result: Results): PgLikeResult {
  return {
    command: result.command ?? "",
    rowCount: result.rowCount ?? null,
    rows: result.rows as Record<string, unknown>[],
    fields: result.fields,
  };
}

interface KnexQueryObject {
  sql?: string;
  bindings?: readonly unknown[];
  options?: { rowMode?: "array" | "object" };
  response?: PgLikeResult | PgLikeResult[];
}

/** Knex client config as this dialect reads it (`driverOptions` are merged into it by MikroORM). */
interface PGliteKnexConfig {
  pglite?: PGlite | (() => PGlite);
  searchPath?: string | string[];
}

/** Runs a query against PGlite the way node-postgres would against a server. */
export async function runPgCompatQuery(
  pglite: PGlite,
  sql: string,
  bindings: readonly unknown[] | undefined,
  rowMode?: "array" | "object",
): Promise<PgLikeResult | PgLikeResult[]> {
  const options = rowMode === "array" ? { parsers: PG_COMPAT_PARSERS, rowMode } : { parsers: PG_COMPAT_PARSERS };
  if (bindings && bindings.length > 0) {
    // Extended protocol: one statement, $n parameters (node-postgres does the same when it gets values).
    return toPgResult(await pglite.query(sql, [...bindings], options));
  }
  // Simple protocol: any number of statements (node-postgres does the same without values). Like node-postgres,
  // a multi-statement query yields an array of results.
  const results = (await pglite.exec(sql, options)).map(toPgResult);
  return results.length === 1 ? results[0]! : results;
}

/**
 * The knex Client_PG internals this dialect relies on or replaces (knex ships no types for them and
 * @mikro-orm/knex types its base as `any`).
 */
interface KnexPgClient {
  config: Knex.Config & PGliteKnexConfig;
  searchPath?: string | string[];
  _parseVersion(versionString: string): string;
  _driver(): unknown;
  _acquireOnlyConnection(): Promise<unknown>;
  destroyRawConnection(connection: unknown): Promise<void>;
  checkVersion(connection: unknown): Promise<string>;
  setSchemaSearchPath(connection: unknown, searchPath?: string | string[]): Promise<boolean>;
  _query(connection: unknown, obj: KnexQueryObject): Promise<KnexQueryObject>;
  _stream(connection: unknown, obj: KnexQueryObject, stream: unknown, options?: unknown): Promise<void>;
}
const KnexPgClientBase = PostgreSqlKnexDialect as unknown as new (
  config: Knex.Config & PGliteKnexConfig,
) => PostgreSqlKnexDialect & KnexPgClient;

export class PGliteKnexDialect extends KnexPgClientBase {
  private ownedPglite: PGlite | undefined;

  constructor(config: Knex.Config & PGliteKnexConfig) {
    // PGlite is a single session: exactly one pooled connection, kept for the life of the pool.
    super({ ...config, pool: { ...config.pool, min: 1, max: 1 } });
  }

  override _driver(): unknown {
    return {}; // no node-postgres; the "connection" is the PGlite instance
  }

  private resolvePglite(): PGlite {
    const configured = this.config.pglite;
    if (configured) return typeof configured === "function" ? configured() : configured;
    this.ownedPglite ??= new PGlite();
    return this.ownedPglite;
  }

  override async _acquireOnlyConnection(): Promise<PGlite> {
    const pglite = this.resolvePglite();
    await pglite.waitReady;
    return pglite;
  }

  override async destroyRawConnection(connection: PGlite): Promise<void> {
    // A PGlite handed in through driverOptions belongs to the caller (closeOrm closes it after the ORM).
    if (connection === this.ownedPglite && !connection.closed) {
      this.ownedPglite = undefined;
      await connection.close();
    }
  }

  override async checkVersion(connection: PGlite): Promise<string> {
    const res = await connection.query<{ version: string }>("select version()");
    return this._parseVersion(res.rows[0]!.version);
  }

  override async setSchemaSearchPath(connection: PGlite, searchPath?: string | string[]): Promise<boolean> {
    const path = searchPath ?? this.searchPath;
    if (!path) return true;
    const list = (Array.isArray(path) ? path : [path]).map((s) => `"${s.replace(/"/g, '""')}"`).join(",");
    await connection.exec(`set search_path to ${list}`);
    return true;
  }

  override async _query(connection: PGlite, obj: KnexQueryObject): Promise<KnexQueryObject> {
    if (!obj.sql) throw new Error("The query is empty");
    obj.response = await runPgCompatQuery(connection, obj.sql, obj.bindings, obj.options?.rowMode);
    return obj;
  }

  override _stream(
    connection: PGlite,
    obj: KnexQueryObject,
    stream: NodeJS.WritableStream & { emit(event: "error", err: unknown): boolean },
  ): Promise<void> {
    // PGlite has no cursor streaming through this API: run the query, then write the rows.
    return new Promise((resolve, reject) => {
      stream.on("error", reject);
      stream.on("end", resolve);
      this._query(connection, obj)
        .then((res) => {
          const responses = Array.isArray(res.response) ? res.response : [res.response];
          for (const response of responses) for (const row of response?.rows ?? []) stream.write(row as never);
        })
        .catch((err: unknown) => stream.emit("error", err))
        .finally(() => stream.end());
    });
  }
}
// No out-of-band cancel with a single embedded session (knex would open a second "connection" to cancel).
Object.assign(PGliteKnexDialect.prototype, { driverName: "pglite", canCancelQuery: false });

export class PGliteConnection extends PostgreSqlConnection {
  override createKnex(): void {
    // createKnexClient is typed for a dialect name but knex (and MikroORM) accept a client class.
    this.client = this.createKnexClient(PGliteKnexDialect as unknown as string);
    (this.client.client as { ormConfig?: Configuration }).ormConfig = this.config;
    this.connected = true;
  }
}

export class PGliteDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    // PostgreSqlDriver hard-wires PostgreSqlConnection; nothing has connected yet, so swap it. No read replicas.
    Object.assign(this, { connection: new PGliteConnection(this.config), replicas: [] });
  }
}
