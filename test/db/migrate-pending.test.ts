import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EntitySchema } from "@mikro-orm/core";
import { afterAll, expect, test } from "vitest";
import { closeOrm, migrate, openOrm } from "../../src/db/orm.ts";

// `migrate` answers from one query when the migrations table names every file of the folder: a file added later
// must still run. The folder lies under test/db so its migration resolves @mikro-orm/migrations.
const folder = mkdtempSync(join(import.meta.dirname, ".migrations-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const migration = (name: string, table: string) => `import { Migration } from "@mikro-orm/migrations";
export class ${name} extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table "${table}" ("id" int primary key)');
  }
}
`;

const Probe = new EntitySchema<{ id: number }>({
  name: "Probe",
  tableName: "probe_a",
  properties: { id: { type: "number", primary: true } },
});

test("migrate runs a migration added after every earlier one was applied, and nothing when none is pending", async () => {
  writeFileSync(join(folder, "Migration20250101000001_a.ts"), migration("Migration20250101000001_a", "probe_a"));
  const orm = await openOrm({ entities: [Probe], migrationsPath: folder });
  try {
    expect(await migrate(orm)).toEqual(["Migration20250101000001_a"]);
    expect(await migrate(orm)).toEqual([]);
    writeFileSync(join(folder, "Migration20250101000002_b.ts"), migration("Migration20250101000002_b", "probe_b"));
    expect(await migrate(orm)).toEqual(["Migration20250101000002_b"]);
    const found = await orm.em.getConnection().execute<{ t: string }[]>(`select to_regclass('probe_b') as t`);
    expect(found[0]?.t).toBe("probe_b");
  } finally {
    await closeOrm(orm);
  }
}, 120_000);
