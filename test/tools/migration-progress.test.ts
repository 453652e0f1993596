import { readdirSync } from "node:fs";
import { expect, test } from "vitest";
import { ENTITIES } from "../../generated/entities.ts";
import { closeOrm, DEFAULT_MIGRATIONS_PATH, migrate, openOrm } from "../../src/db/orm.ts";

// Issue 19 "Operations": migrations run from the CLI report each one; a database already migrated reports nothing.
test("a migration watcher hears the pending count, then each migration by name, in order", async () => {
  const files = readdirSync(DEFAULT_MIGRATIONS_PATH)
    .filter((name) => /\.[jt]s$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => name.slice(0, -3))
    .sort();
  const orm = await openOrm({ entities: ENTITIES });
  try {
    const heard: (number | string)[] = [];
    const applied = await migrate(orm, (pending) => {
      heard.push(pending);
      return (name) => heard.push(name);
    });
    expect(applied).toEqual(files);
    expect(heard).toEqual([files.length, ...files]);
    const again: number[] = [];
    const watcher = (pending: number) => {
      again.push(pending);
      return null;
    };
    expect(await migrate(orm, watcher)).toEqual([]);
    expect(again).toEqual([]);
  } finally {
    await closeOrm(orm);
  }
});
