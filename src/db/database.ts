import type { MikroORM } from "@mikro-orm/postgresql";
import { ENTITIES } from "../../generated/entities.ts";
import type { Config } from "../config.ts";
import { type MigrationWatcher, migrate, openOrm } from "./orm.ts";

export { DataDirInUseError } from "./data-dir-lock.ts";

/** Opens the configured database (PostgreSQL with DATABASE_URL, else PGlite) and applies pending migrations. */
export async function openDatabase(config: Config, watch?: MigrationWatcher): Promise<MikroORM> {
  const orm = await openOrm({
    entities: ENTITIES,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(config.pgliteDir ? { pgliteDir: config.pgliteDir } : {}),
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    timeouts: config.database,
  });
  await migrate(orm, watch);
  return orm;
}
