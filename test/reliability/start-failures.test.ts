import pg from "pg";
import { describe, expect, test } from "vitest";
import { ENTITIES } from "../../generated/entities.ts";
import { explainStartFailure } from "../../src/app/start-failure.ts";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { closeOrm, DatabaseStartError, openOrm } from "../../src/db/orm.ts";
import { usingPostgres, workerSchema } from "../support/database.ts";

// Issue 31 items 4 and 8: a mistyped DATABASE_URL created an empty registry and served it; PostgreSQL down was a
// raw ECONNREFUSED stack. Now: never create a database, one line naming the cause and the setting, exit code 3.
describe.runIf(usingPostgres)("starting against PostgreSQL", () => {
  const url = new URL(process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test");

  test("a database that does not exist is named, and not created", async () => {
    const missing = `fz_missing_${process.pid}`;
    const wrong = new URL(url);
    wrong.pathname = `/${missing}`;
    const err = await openOrm({ entities: ENTITIES, databaseUrl: wrong.href }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseStartError);
    expect((err as Error).message).toContain(`has no database "${missing}"`);
    expect((err as Error).message).toContain("the server never creates one");
    expect(explainStartFailure(err)?.exitCode).toBe(3);
    const admin = new pg.Client({ connectionString: url.href });
    await admin.connect();
    const { rows } = await admin.query("select 1 from pg_database where datname = $1", [missing]);
    await admin.end();
    expect(rows).toEqual([]);
  });

  test("a server that refuses connections is one line naming host and port", async () => {
    const closed = new URL(url);
    closed.port = "1"; // nothing listens on port 1
    const err = await openOrm({ entities: ENTITIES, databaseUrl: closed.href }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `PostgreSQL at ${closed.hostname}:1 refused the connection: is it running? (DATABASE_URL)`,
    );
  });
});

// The DB_*_MS settings reach the connections the server opens (openDatabase), not only the defaults.
describe.runIf(usingPostgres)("database settings", () => {
  test("DB_LOCK_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS are the sessions' lock_timeout and statement_timeout", async () => {
    const config = loadConfig({
      DATABASE_URL: process.env["DATABASE_URL"],
      DATABASE_SCHEMA: `${workerSchema()}_settings`,
      ENCRYPTION_KEY: "0f".repeat(32),
      DB_LOCK_TIMEOUT_MS: "1234",
      DB_STATEMENT_TIMEOUT_MS: "23456",
    });
    const orm = await openDatabase(config);
    try {
      const rows = await orm.em
        .getConnection()
        .execute<{ lock: string; statement: string }[]>(
          "select current_setting('lock_timeout') as lock, current_setting('statement_timeout') as statement",
        );
      expect(rows[0]).toEqual({ lock: "1234ms", statement: "23456ms" });
    } finally {
      await closeOrm(orm);
    }
  });
});
