import type { MikroORM } from "@mikro-orm/postgresql";
import { expect } from "vitest";
import { ENTITIES } from "../../generated/entities.ts";
import { migrate, openOrm } from "../../src/db/orm.ts";
import { truncateAll } from "../../src/db/reset.ts";

let shared: Promise<MikroORM> | null = null;

export const usingPostgres = Boolean(process.env["DATABASE_URL"]);

/** Worker-level schema on PostgreSQL, unique to this run (see global-setup.ts): workers never see each other's rows. */
export function workerSchema(): string {
  const run = process.env["FZ_TEST_RUN"] ?? "local";
  return `t${run}_w${process.env["VITEST_POOL_ID"] ?? process.env["VITEST_WORKER_ID"] ?? "0"}`;
}

/** One migrated database per test worker (PGlite in memory, or a PostgreSQL schema with DATABASE_URL). */
export function testOrm(): Promise<MikroORM> {
  if (process.env["FZ_TEST_PURE"]) {
    const file = expect.getState().testPath ?? "a test";
    return Promise.reject(new Error(`pure test ${file} opened the test database: drop .pure from its name`));
  }
  shared ??= (async () => {
    const url = process.env["DATABASE_URL"];
    const orm = await openOrm({
      entities: ENTITIES,
      ...(url ? { databaseUrl: url, schema: workerSchema() } : {}),
    });
    await migrate(orm);
    return orm;
  })();
  return shared;
}

export async function resetDatabase(): Promise<MikroORM> {
  const orm = await testOrm();
  await truncateAll(orm);
  return orm;
}
