// Writes a migration for the difference between the generated entities and the schema the committed
// migrations build (computed on a throw-away in-memory PGlite). Usage: npm run db:migration [-- name]
import { ENTITIES } from "../generated/entities.ts";
import { closeOrm, DEFAULT_MIGRATIONS_PATH, migrate, openOrm } from "../src/db/orm.ts";

const name = process.argv[2];
const orm = await openOrm({ entities: ENTITIES });
try {
  await migrate(orm);
  const result = await orm.getMigrator().createMigration(DEFAULT_MIGRATIONS_PATH, false, false, name);
  if (result.diff.up.length === 0) console.log("db:migration: entities match the migrations; nothing written");
  else console.log(`db:migration: wrote ${result.fileName} (${result.diff.up.length} statements)`);
} finally {
  await closeOrm(orm);
}
