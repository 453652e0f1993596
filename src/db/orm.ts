/**
 * Opens MikroORM on PostgreSQL (a connection URL) or on embedded PGlite (a data directory, or in memory),
 * with the Migrator registered and the same settings on both, so migrations and queries behave the same.
 */
import { constants, cpSync, existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { EntitySchema, Options } from "@mikro-orm/core";
import { type EntityManager, MikroORM, PostgreSqlDriver } from "@mikro-orm/postgresql";
import type pg from "pg";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.ts";
import { PGliteDriver } from "./pglite-dialect.ts";
import { earlyPgliteWasm, placeStagedTemplate } from "./pglite-early.ts";
import { Slots } from "./slots.ts";
import { type DatabaseTimeouts, DEFAULT_TIMEOUTS, pgConnectionSettings } from "./timeouts.ts";

/** `src/db/migrations/`, next to this file (independent of the working directory). */
export const DEFAULT_MIGRATIONS_PATH = fileURLToPath(new URL("./migrations", import.meta.url));
export const MIGRATIONS_TABLE = "mikro_orm_migrations";
/**
 * A PGlite data directory with every migration applied, next to the migrations folder: tools/build.mjs writes it
 * into dist/ (src/db/pglite-template.ts), so only the compiled server finds one; from the sources there is none.
 */
export const PGLITE_TEMPLATE = fileURLToPath(new URL("./pglite-template", import.meta.url));

export interface OpenOrmOptions {
  /** PostgreSQL connection URL (e.g. process.env.DATABASE_URL). When set, PGlite is not used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory (created if missing, locked while open). Undefined = PGlite in memory. */
  pgliteDir?: string | undefined;
  entities: EntitySchema[];
  /** Folder of migration files (.ts/.js). Default: src/db/migrations/. */
  migrationsPath?: string | undefined;
  /**
   * PostgreSQL schema for tables and the migrations table (e.g. one per test worker). Created if missing;
   * search_path is set to `<schema>, public` on every connection and MikroORM's `schema` option points there.
   */
  schema?: string | undefined;
  /** Log SQL (MikroORM `debug`). */
  debug?: boolean | undefined;
  /** Statement, lock, idle-transaction, connect and write-slot deadlines (default DEFAULT_TIMEOUTS). */
  timeouts?: DatabaseTimeouts | undefined;
}

export type Backend = "postgresql" | "pglite";

interface OpenResources {
  backend: Backend;
  timeouts: DatabaseTimeouts;
  pglite?: PGlite;
  lock?: DataDirLock;
}

const opened = new WeakMap<MikroORM, OpenResources>();

/**
 * PGlite's own start parameters plus a smaller buffer cache: the default shared_buffers (128MB) grows the
 * WebAssembly memory past its initial 128 MiB, which a WebAssembly memory never gives back; 16MB keeps the whole
 * server near 250 MiB resident (docs/deploy.md, "Memory"). The embedded database serves one process: its working
 * set fits, and the operating system's page cache still holds the data files.
 */
const PGLITE_SETTINGS = { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"] };

/** Every session in UTC, so raw SQL date arithmetic (date_trunc, ::date) matches PGlite, whose default is UTC. */
function sessionUtc(conn: pg.Client, done: (err: Error | null, conn: pg.Client) => void): void {
  conn.query("set time zone 'UTC'", (err: Error | null) => done(err, conn));
}

function baseOptions(options: OpenOrmOptions): Options<PostgreSqlDriver> {
  const migrationsPath = resolve(options.migrationsPath ?? DEFAULT_MIGRATIONS_PATH);
  const debug = options.debug ?? false;
  return {
    entities: options.entities,
    forceUtcTimezone: true,
    debug,
    migrations: {
      path: migrationsPath,
      pathTs: migrationsPath,
      glob: "!(*.d).{js,ts}",
      tableName: MIGRATIONS_TABLE,
      transactional: true,
      allOrNothing: true,
      // No `.snapshot-*.json` written into the source tree after every migrate (and no races between workers).
      snapshot: false,
      silent: !debug,
    },
    // Import migration files through this module's `import()`, so vitest/tsx transform .ts migrations.
    dynamicImportProvider: (id: string) => import(id),
    ...(options.schema ? { schema: options.schema } : {}),
  };
}

function searchPath(options: OpenOrmOptions): { searchPath?: string[] } {
  return options.schema ? { searchPath: [options.schema, "public"] } : {};
}

async function ensureSchema(orm: MikroORM, schema: string | undefined): Promise<void> {
  if (!schema) return;
  const quoted = orm.em.getPlatform().quoteIdentifier(schema);
  await orm.em.getConnection().execute(`create schema if not exists ${quoted}`);
}

/**
 * A fresh data directory (no PG_VERSION yet) starts as a copy of the build's template instead of running initdb
 * and every migration (seconds, and initdb's memory stays with the process); `migrate` then applies only what the
 * template lacks (nothing, when the build is current). Tables in another schema than public are not in the
 * template: that case starts empty as before.
 */
async function seedFromTemplate(dir: string | undefined, schema: string | undefined): Promise<void> {
  const fresh = dir !== undefined && !schema && !existsSync(join(dir, "PG_VERSION"));
  if ((await placeStagedTemplate(fresh ? dir : undefined)) || !fresh) return;
  if (!existsSync(join(PGLITE_TEMPLATE, "PG_VERSION"))) return;
  cpSync(PGLITE_TEMPLATE, dir, { recursive: true, mode: constants.COPYFILE_FICLONE });
}

/** Opens the ORM (PostgreSQL if `databaseUrl`, else PGlite). Close it with `closeOrm`. */
export async function openOrm(options: OpenOrmOptions): Promise<MikroORM> {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  if (options.databaseUrl) {
    const orm = await MikroORM.init({
      ...baseOptions(options),
      driver: PostgreSqlDriver,
      clientUrl: options.databaseUrl,
      // Never create the database a URL names: a mistyped DATABASE_URL must not start an empty registry.
      ensureDatabase: false,
      pool: {
        afterCreate: sessionUtc,
        acquireTimeoutMillis: timeouts.connectMs * 2,
        createTimeoutMillis: timeouts.connectMs,
      },
      driverOptions: { connection: pgConnectionSettings(timeouts), ...searchPath(options) },
    });
    opened.set(orm, { backend: "postgresql", timeouts });
    try {
      await checkReachable(orm, options.databaseUrl);
      await ensureSchema(orm, options.schema);
    } catch (err) {
      await closeOrm(orm);
      throw err;
    }
    return orm;
  }

  const lock = options.pgliteDir ? acquireDataDirLock(options.pgliteDir) : undefined;
  let pglite: PGlite | undefined;
  let orm: MikroORM | undefined;
  try {
    const dir = options.pgliteDir ? resolve(options.pgliteDir) : undefined;
    await seedFromTemplate(dir, options.schema);
    const pgliteWasmModule = await earlyPgliteWasm();
    pglite = new PGlite(dir, pgliteWasmModule ? { ...PGLITE_SETTINGS, pgliteWasmModule } : PGLITE_SETTINGS);
    await pglite.waitReady;
    orm = await MikroORM.init({
      ...baseOptions(options),
      driver: PGliteDriver,
      dbName: "postgres", // PGlite's database; MikroORM's ensureDatabase checks it exists
      driverOptions: { pglite, ...searchPath(options) },
    });
    opened.set(orm, { backend: "pglite", timeouts, pglite, ...(lock ? { lock } : {}) });
    await ensureSchema(orm, options.schema);
    return orm;
  } catch (err) {
    if (orm) await orm.close(true).catch(() => undefined);
    if (pglite && !pglite.closed) await pglite.close().catch(() => undefined);
    lock?.release();
    throw err;
  }
}

/**
 * The first query, with the cause of its failure in one line (issue 31 items 4 and 8): a database that does not
 * exist, a server that refuses or does not answer, wrong credentials.
 */
async function checkReachable(orm: MikroORM, url: string): Promise<void> {
  try {
    await orm.em.getConnection().execute("select 1");
  } catch (err) {
    throw new DatabaseStartError(describeStartFailure(err, url), { cause: err });
  }
}

/** The database could not be used at start; the message names the cause and the setting to change. */
export class DatabaseStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseStartError";
  }
}

function describeStartFailure(err: unknown, url: string): string {
  const parsed = safeUrl(url);
  const where = parsed ? `${parsed.hostname}:${parsed.port || "5432"}` : "the DATABASE_URL host";
  const database = parsed ? decodeURIComponent(parsed.pathname.slice(1)) || parsed.username || "postgres" : "";
  const code = (err as { code?: unknown }).code;
  const name = (err as { name?: unknown }).name;
  if (code === "3D000") {
    return `PostgreSQL at ${where} has no database "${database}": create it (createdb ${database}) or correct DATABASE_URL; the server never creates one`;
  }
  if (code === "ECONNREFUSED") return `PostgreSQL at ${where} refused the connection: is it running? (DATABASE_URL)`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `the DATABASE_URL host ${where} does not resolve`;
  if (code === "28P01" || code === "28000") return `PostgreSQL at ${where} refused the credentials of DATABASE_URL`;
  if (name === "KnexTimeoutError" || code === "ETIMEDOUT" || /timeout/i.test(String((err as Error).message))) {
    return `PostgreSQL at ${where} did not answer within DB_CONNECT_TIMEOUT_MS: check the host, the network, DATABASE_URL`;
  }
  return `PostgreSQL at ${where} could not be used (${typeof code === "string" ? code : (name ?? "error")}): check DATABASE_URL`;
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Closes the ORM, then (PGlite) the database and the data-directory lock. */
export async function closeOrm(orm: MikroORM): Promise<void> {
  const resources = opened.get(orm);
  opened.delete(orm);
  try {
    await orm.close(true);
  } finally {
    try {
      if (resources?.pglite && !resources.pglite.closed) await resources.pglite.close();
    } finally {
      resources?.lock?.release();
    }
  }
}

/** The PGlite instance under an ORM opened by `openOrm` on PGlite; null on PostgreSQL. */
export function pgliteOf(orm: MikroORM): PGlite | null {
  return opened.get(orm)?.pglite ?? null;
}

/** Which database an ORM opened by `openOrm` runs on. */
export function ormBackend(orm: MikroORM): Backend {
  return opened.get(orm)?.backend ?? (orm.config.getDriver() instanceof PGliteDriver ? "pglite" : "postgresql");
}

/**
 * An entity manager on a connection of its own, for writes that must commit at once while a call's transaction is
 * open (rate-limit counters); null on PGlite, which has one connection.
 */
export function ownConnection(orm: MikroORM): (() => EntityManager) | null {
  if (ormBackend(orm) !== "postgresql") return null;
  let fork = forkByOrm.get(orm);
  if (!fork) {
    fork = () => orm.em.fork();
    forkByOrm.set(orm, fork);
  }
  return fork;
}

/** One `ownConnection` function per ORM: it is asked for on every call. */
const forkByOrm = new WeakMap<MikroORM, () => EntityManager>();

/** Connections of the pool that open transactions never take: `ownConnection` writes and plain reads use them. */
const RESERVED_CONNECTIONS = 2;
const writeSlotsByOrm = new WeakMap<MikroORM, Slots>();

/**
 * How many calls may hold a transaction at once on PostgreSQL: the pool less the reserved connections, so a call
 * whose transaction waits for an `ownConnection` write always finds one free (else 20 concurrent logins on a pool
 * of 10 would each hold a connection and wait for an eleventh). Null on PGlite: its one connection serialises
 * transactions by itself.
 */
export function writeSlots(orm: MikroORM): Slots | null {
  if (ormBackend(orm) !== "postgresql") return null;
  let slots = writeSlotsByOrm.get(orm);
  if (!slots) {
    const poolMax = orm.config.get("pool")?.max ?? 10;
    const waitMs = opened.get(orm)?.timeouts.writeSlotWaitMs ?? DEFAULT_TIMEOUTS.writeSlotWaitMs;
    slots = new Slots(Math.max(1, poolMax - RESERVED_CONNECTIONS), waitMs);
    writeSlotsByOrm.set(orm, slots);
  }
  return slots;
}

/**
 * Runs pending migrations (all in one transaction); returns the names applied. When the migrations table already
 * names every file of the migrations folder (every start but the first), one query answers and the Migrator
 * (umzug and its CLI, each migration module) is never loaded: `orm.getMigrator()` loads @mikro-orm/migrations on
 * first use.
 */
export async function migrate(orm: MikroORM, watch?: MigrationWatcher): Promise<string[]> {
  if (await everyMigrationApplied(orm)) return [];
  const migrator = orm.getMigrator();
  const onMigrated = watch ? watch((await migrator.getPendingMigrations()).length) : null;
  if (!onMigrated) return (await migrator.up()).map((m) => m.name);
  // One `up` per migration, to report each: each commits on its own (the server's start keeps one transaction for
  // all). The Migrator's events cannot serve: it rebuilds its umzug instance, listeners and all, on the way.
  const names = (await migrator.getPendingMigrations()).map((m) => m.name);
  for (const name of names) {
    await migrator.up({ migrations: [name] });
    onMigrated(name);
  }
  return names;
}

/**
 * Told how many migrations are pending before any runs; returns what to call after each one (command-line tools
 * show progress with it; the server stays silent), or null for nothing.
 */
export type MigrationWatcher = (pending: number) => ((name: string) => void) | null;

/** Migration names as MikroORM records them: the file names of the migrations folder, without extension. */
function migrationNames(orm: MikroORM): string[] {
  const folder = orm.config.get("migrations").path;
  if (!folder || !existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => /\.[jt]s$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => name.slice(0, -3));
}

async function everyMigrationApplied(orm: MikroORM): Promise<boolean> {
  const names = migrationNames(orm);
  if (names.length === 0) return false;
  const schema = orm.config.get("schema");
  const platform = orm.em.getPlatform();
  const table = `${schema ? `${platform.quoteIdentifier(schema)}.` : ""}${platform.quoteIdentifier(MIGRATIONS_TABLE)}`;
  const connection = orm.em.getConnection();
  const exists = await connection.execute<{ found: string | null }[]>("select to_regclass(?) as found", [table]);
  if (!exists[0]?.found) return false;
  const rows = await connection.execute<{ name: string }[]>(`select name from ${table}`);
  const applied = new Set(rows.map((row) => row.name));
  return names.every((name) => applied.has(name));
}
