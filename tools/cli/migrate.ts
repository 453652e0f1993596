import type { Config } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { closeOrm } from "../../src/db/orm.ts";
import { migrationProgress } from "./migration-progress.ts";

/** `migrate`: applies the pending migrations to the configured database with progress (the server does it too). */
export async function runMigrations(config: Config): Promise<number> {
  let pending = 0;
  const orm = await openDatabase(config, (count) => {
    pending = count;
    return migrationProgress(count);
  });
  await closeOrm(orm);
  console.log(pending === 0 ? "migrations: none pending" : `migrations: ${pending} applied`);
  return 0;
}
