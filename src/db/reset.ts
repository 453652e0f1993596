import type { MikroORM } from "@mikro-orm/postgresql";

/**
 * Empties every table of the ORM's schema except the migrations table, in one
 * `TRUNCATE ... RESTART IDENTITY CASCADE` statement (sequences restart too). Meant for resets between tests.
 */
export async function truncateAll(orm: MikroORM): Promise<void> {
  const connection = orm.em.getConnection();
  const platform = orm.em.getPlatform();
  const schema = orm.config.get("schema") ?? platform.getDefaultSchemaName() ?? "public";
  const migrationsTable = (orm.config.get("migrations").tableName ?? "mikro_orm_migrations").split(".").pop();
  const rows = await connection.execute<{ tablename: string }[]>(
    `select tablename from pg_catalog.pg_tables where schemaname = ${platform.quoteValue(schema)} order by tablename`,
  );
  const tables = rows
    .map((r) => r.tablename)
    .filter((t) => t !== migrationsTable)
    .map((t) => `${platform.quoteIdentifier(schema)}.${platform.quoteIdentifier(t)}`);
  if (tables.length === 0) return;
  await connection.execute(`truncate table ${tables.join(", ")} restart identity cascade`);
}
