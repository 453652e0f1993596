import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { placeStagedTemplate } from "../../src/db/pglite-early.ts";
import { beginPgliteStart } from "../../tools/pglite-early.mjs";

const EARLY = Symbol.for("freezone.pgliteEarly");
const slot = globalThis as Record<symbol, unknown>;
const dirs: string[] = [];

afterEach(() => {
  slot[EARLY] = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A scratch folder holding a tiny "template" (PG_VERSION and a nested file) and a data directory path. */
function scratch() {
  const root = mkdtempSync(join(tmpdir(), "fz-early-"));
  dirs.push(root);
  const template = join(root, "template");
  mkdirSync(join(template, "base", "5"), { recursive: true });
  writeFileSync(join(template, "PG_VERSION"), "17\n");
  writeFileSync(join(template, "base", "5", "1249"), "catalog");
  return { root, template, data: join(root, "data") };
}

describe("npm start stages a fresh data directory beside module loading (tools/pglite-early.mjs)", () => {
  test("the staged copy is complete and moves into the locked, fresh directory", async () => {
    const { root, template, data } = scratch();
    beginPgliteStart(template, { PGLITE_DIR: data });
    const staging = `${data}.staging-${process.pid}`;
    mkdirSync(data); // the data directory's lock makes it before the move
    writeFileSync(join(data, ".lock"), "1");
    expect(await placeStagedTemplate(data)).toBe(true);
    expect(readFileSync(join(data, "base", "5", "1249"), "utf8")).toBe("catalog");
    expect(existsSync(join(data, "PG_VERSION"))).toBe(true);
    expect(existsSync(join(data, ".lock"))).toBe(true);
    expect(existsSync(staging)).toBe(false);
    expect(existsSync(join(root, "template", "PG_VERSION"))).toBe(true); // the template itself stays
  });

  test("a data directory that already holds a database keeps it; the copy is discarded", async () => {
    const { template, data } = scratch();
    beginPgliteStart(template, { PGLITE_DIR: data });
    mkdirSync(join(data, "base"), { recursive: true });
    writeFileSync(join(data, "PG_VERSION"), "mine");
    expect(await placeStagedTemplate(data)).toBe(false);
    expect(readFileSync(join(data, "PG_VERSION"), "utf8")).toBe("mine");
    expect(existsSync(`${data}.staging-${process.pid}`)).toBe(false);
  });

  test("a copy staged for another directory is not used", async () => {
    const { root, template, data } = scratch();
    beginPgliteStart(template, { PGLITE_DIR: data });
    const other = join(root, "other");
    mkdirSync(other);
    expect(await placeStagedTemplate(other)).toBe(false);
    expect(existsSync(join(other, "PG_VERSION"))).toBe(false);
    expect(existsSync(`${data}.staging-${process.pid}`)).toBe(false);
  });

  test("nothing is staged on PostgreSQL, for an existing database, or in memory", () => {
    const { template, data } = scratch();
    beginPgliteStart(template, { DATABASE_URL: "postgres://x", PGLITE_DIR: data });
    expect(slot[EARLY]).toBeUndefined();
    beginPgliteStart(template, { PGLITE_DIR: "" });
    expect((slot[EARLY] as { staged?: unknown }).staged).toBeUndefined();
    mkdirSync(data);
    writeFileSync(join(data, "PG_VERSION"), "17\n");
    beginPgliteStart(template, { PGLITE_DIR: data });
    expect((slot[EARLY] as { staged?: unknown }).staged).toBeUndefined();
  });

  test("a staging directory left by a start that died is removed", async () => {
    const { template, data } = scratch();
    const abandoned = `${data}.staging-2147483646`;
    mkdirSync(abandoned);
    beginPgliteStart(template, { PGLITE_DIR: data });
    expect(existsSync(abandoned)).toBe(false);
    expect(await placeStagedTemplate(undefined)).toBe(false); // this start's own copy: waited for, then removed
    expect(existsSync(`${data}.staging-${process.pid}`)).toBe(false);
  });
});
