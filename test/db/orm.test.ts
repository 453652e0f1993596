import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EntitySchema, UniqueConstraintViolationException } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acquireDataDirLock, DataDirInUseError, readHolder } from "../../src/db/data-dir-lock.ts";
import { closeOrm, MIGRATIONS_TABLE, migrate, openOrm, ormBackend } from "../../src/db/orm.ts";
import { truncateAll } from "../../src/db/reset.ts";
import { workerSchema } from "../support/database.ts";

interface Thing {
  id: string;
  name: string;
  payload: Record<string, unknown>;
  tags: string[];
  createdAt: Date;
  active: boolean;
  score: number;
  counter: number;
  note?: string | null;
}

interface Event {
  id: number;
  thingId: string;
  kind: string;
  at: Date;
  seq: bigint;
  amount?: string | null;
}

const ThingSchema = new EntitySchema<Thing>({
  name: "Thing",
  tableName: "thing",
  properties: {
    id: { type: "string", primary: true, columnType: "text" },
    name: { type: "text" },
    payload: { type: "json", columnType: "jsonb" },
    tags: { type: "string[]", columnType: "text[]" },
    createdAt: { type: "datetime", columnType: "timestamptz" },
    active: { type: "boolean" },
    score: { type: "double" },
    counter: { type: "integer" },
    note: { type: "text", nullable: true },
  },
});

const EventSchema = new EntitySchema<Event>({
  name: "Event",
  tableName: "event",
  properties: {
    id: { type: "integer", primary: true, autoincrement: true },
    thingId: { type: "text" },
    kind: { type: "text" },
    at: { type: "datetime", columnType: "timestamptz" },
    seq: { type: "bigint" },
    amount: { type: "decimal", precision: 12, scale: 2, nullable: true },
  },
});

const entities = [ThingSchema, EventSchema];
const migrationsPath = fileURLToPath(new URL("./migrations", import.meta.url));
const DATABASE_URL = process.env["DATABASE_URL"];
const SLOW = 120_000;

function thing(id: string, overrides: Partial<Thing> = {}): Thing {
  return {
    id,
    name: `thing ${id}`,
    payload: {},
    tags: [],
    createdAt: new Date("2024-01-02T03:04:05.678Z"),
    active: true,
    score: 0,
    counter: 0,
    note: null,
    ...overrides,
  };
}

function log(label: string, message: string): void {
  console.log(`[db ${label}] ${message}`);
}

interface Backend {
  label: string;
  enabled: boolean;
  open(): Promise<MikroORM>;
  cleanup?(orm: MikroORM): Promise<void>;
}

// One schema per vitest worker on PostgreSQL, recreated empty for this file.
const pgSchema = `${workerSchema()}_db_orm`;

const backends: Backend[] = [
  {
    label: "PGlite in memory",
    enabled: true,
    open: () => openOrm({ entities, migrationsPath }),
  },
  {
    label: "PostgreSQL (DATABASE_URL)",
    enabled: Boolean(DATABASE_URL),
    async open() {
      const orm = await openOrm({ entities, migrationsPath, databaseUrl: DATABASE_URL, schema: pgSchema });
      await orm.em.getConnection().execute(`drop schema if exists "${pgSchema}" cascade; create schema "${pgSchema}"`);
      return orm;
    },
    async cleanup(orm) {
      await orm.em.getConnection().execute(`drop schema if exists "${pgSchema}" cascade`);
    },
  },
];

for (const backend of backends) {
  describe(backend.label, () => {
    const it = test.skipIf(!backend.enabled);
    let orm: MikroORM;
    let applied: string[] = [];

    beforeAll(async () => {
      if (!backend.enabled) return;
      const t0 = performance.now();
      orm = await backend.open();
      const t1 = performance.now();
      applied = await migrate(orm);
      const t2 = performance.now();
      log(backend.label, `open ${(t1 - t0).toFixed(0)} ms, migrate ${(t2 - t1).toFixed(0)} ms`);
    }, SLOW);

    afterAll(async () => {
      if (!orm) return;
      await backend.cleanup?.(orm);
      await closeOrm(orm);
    }, SLOW);

    it("applies the hand-written migration once (multi-statement SQL included)", async () => {
      expect(applied).toEqual(["Migration20250101000000_db_test"]);
      expect(await migrate(orm)).toEqual([]);
      const indexes = await orm.em
        .getConnection()
        .execute<{ indexname: string }[]>(
          "select indexname from pg_indexes where tablename = 'thing' and schemaname = current_schema()",
        );
      expect(indexes.map((r) => r.indexname)).toContain("thing_name_idx");
      expect(ormBackend(orm)).toBe(backend.label.startsWith("PGlite") ? "pglite" : "postgresql");
    });

    it("inserts, finds and updates through em.fork(); dates, arrays and jsonb round-trip", async () => {
      await truncateAll(orm);
      const createdAt = new Date("2024-05-06T07:08:09.123Z");
      const payload = {
        nested: { list: [1, 2.5, "three", null], ok: true },
        q: "what?",
        unicode: "žluťoučký 🐴",
        empty: {},
      };
      const tags = ["plain", "with space", 'quote"d', "comma,here", "back\\slash", "{braces}", "", "ünï"];
      const em = orm.em.fork();
      em.create(ThingSchema, thing("a", { payload, tags, createdAt, active: false, score: 0.1 + 0.2, counter: -7 }));
      em.create(ThingSchema, thing("b", { note: "noted" }));
      await em.flush();

      const a = await orm.em.fork().findOneOrFail(ThingSchema, "a");
      expect(a.createdAt).toBeInstanceOf(Date);
      expect(a.createdAt.getTime()).toBe(createdAt.getTime());
      expect(a.payload).toEqual(payload);
      expect(a.tags).toEqual(tags);
      expect(a.active).toBe(false);
      expect(a.score).toBe(0.1 + 0.2);
      expect(a.counter).toBe(-7);
      expect(a.note).toBeNull();
      expect((await orm.em.fork().findOneOrFail(ThingSchema, "b")).note).toBe("noted");

      const em2 = orm.em.fork();
      const toUpdate = await em2.findOneOrFail(ThingSchema, "a");
      toUpdate.tags = [...toUpdate.tags, "added"];
      toUpdate.payload = { replaced: [true] };
      toUpdate.note = "now set";
      toUpdate.createdAt = new Date("1999-12-31T23:59:59.999Z");
      await em2.flush();

      const again = await orm.em.fork().findOneOrFail(ThingSchema, "a");
      expect(again.tags.at(-1)).toBe("added");
      expect(again.payload).toEqual({ replaced: [true] });
      expect(again.note).toBe("now set");
      expect(again.createdAt.toISOString()).toBe("1999-12-31T23:59:59.999Z");
      expect(await orm.em.fork().count(ThingSchema, { tags: { $contains: ["added"] } })).toBe(1);
    });

    it("shares MikroORM 6.6.16's text[] quirk: 'NULL' elements and outer spaces are not quoted", async () => {
      // PostgreSqlPlatform.marshallArray only quotes "", quotes, braces, commas and backslashes, so PostgreSQL
      // reads an unquoted NULL (any case) as a null element and trims unquoted leading/trailing spaces.
      await truncateAll(orm);
      await orm.em
        .fork()
        .persistAndFlush(orm.em.fork().create(ThingSchema, thing("q", { tags: ["NULL", "null", " pad "] })));
      expect((await orm.em.fork().findOneOrFail(ThingSchema, "q")).tags).toEqual([null, null, "pad"]);
    });

    it("returns the same JS types as node-postgres with MikroORM (raw SQL and typed properties)", async () => {
      await truncateAll(orm);
      const em = orm.em.fork();
      em.create(ThingSchema, thing("t"));
      await em.flush(); // no relation is mapped, so MikroORM does not order thing before event
      em.create(EventSchema, { thingId: "t", kind: "k", at: new Date(), seq: 9007199254740993n, amount: "12.50" });
      await em.flush();
      const ev = await orm.em.fork().findOneOrFail(EventSchema, { kind: "k" });
      expect(ev.seq).toBe(9007199254740993n);
      expect(ev.amount).toBe("12.50");
      expect(ev.at).toBeInstanceOf(Date);

      const [row] = await orm.em
        .getConnection()
        .execute<Record<string, unknown>[]>(
          `select count(*) as c, 1.5::numeric as n, 2::int4 as i, 0.5::float8 as f, now() as ts, '{a,b}'::text[] as arr, '{"k":[1]}'::jsonb as j, '?' as q, true as b, '\\x0102'::bytea as bin`,
        );
      expect(row).toMatchObject({ c: "1", n: "1.5", i: 2, f: 0.5, arr: ["a", "b"], j: { k: [1] }, q: "?", b: true });
      expect(typeof row?.["ts"]).toBe("string"); // MikroORM's pg setup keeps timestamps as strings; entities get Date
      expect(Buffer.isBuffer(row?.["bin"])).toBe(true);
    });

    it("rolls back a transaction that throws", async () => {
      await truncateAll(orm);
      await expect(
        orm.em.fork().transactional(async (em) => {
          em.create(ThingSchema, thing("rolled-back"));
          await em.flush();
          expect(await em.count(ThingSchema, {})).toBe(1); // visible inside the transaction
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await orm.em.fork().count(ThingSchema, {})).toBe(0);

      // The connection is usable afterwards, and a failed statement inside a transaction rolls back too.
      await orm.em.fork().persistAndFlush(orm.em.fork().create(ThingSchema, thing("dup")));
      await expect(
        orm.em.fork().transactional(async (em) => {
          em.create(ThingSchema, thing("other"));
          em.create(ThingSchema, thing("dup"));
          await em.flush();
        }),
      ).rejects.toBeInstanceOf(UniqueConstraintViolationException);
      expect(await orm.em.fork().count(ThingSchema, {})).toBe(1);
    });

    it("does conditional updates with em.nativeUpdate (where on a counter)", async () => {
      await truncateAll(orm);
      await orm.em.fork().persistAndFlush(orm.em.fork().create(ThingSchema, thing("c", { counter: 0 })));
      const em = orm.em.fork();
      expect(await em.nativeUpdate(ThingSchema, { id: "c", counter: 0 }, { counter: 1 })).toBe(1);
      expect(await em.nativeUpdate(ThingSchema, { id: "c", counter: 0 }, { counter: 1 })).toBe(0);
      expect(await em.nativeUpdate(ThingSchema, { id: "c", counter: 1 }, { counter: 2 })).toBe(1);
      expect((await orm.em.fork().findOneOrFail(ThingSchema, "c")).counter).toBe(2);
    });

    it("truncateAll empties every table but the migrations table and restarts identities", async () => {
      const em = orm.em.fork();
      em.create(ThingSchema, thing("x"));
      await em.flush();
      em.create(EventSchema, { thingId: "x", kind: "first", at: new Date(), seq: 1n });
      await em.flush();
      const t0 = performance.now();
      await truncateAll(orm);
      log(backend.label, `truncateAll ${(performance.now() - t0).toFixed(1)} ms`);
      const fork = orm.em.fork();
      expect(await fork.count(ThingSchema, {})).toBe(0);
      expect(await fork.count(EventSchema, {})).toBe(0);
      const migrations = await fork.getConnection().execute(`select name from "${MIGRATIONS_TABLE}"`);
      expect(migrations.length).toBe(1);

      fork.create(ThingSchema, thing("y"));
      await fork.flush();
      const ev = fork.create(EventSchema, { thingId: "y", kind: "after", at: new Date(), seq: 2n });
      await fork.flush();
      expect(ev.id).toBe(1);
    });

    it(
      "measures a 1,000-row insert and select",
      async () => {
        await truncateAll(orm);
        const em = orm.em.fork();
        const t0 = performance.now();
        for (let i = 0; i < 1000; i++) {
          em.create(ThingSchema, thing(`row-${i}`, { tags: ["a", String(i)], payload: { i }, counter: i }));
        }
        await em.flush();
        const t1 = performance.now();
        const rows = await orm.em.fork().find(ThingSchema, {}, { orderBy: { counter: "asc" } });
        const t2 = performance.now();
        expect(rows).toHaveLength(1000);
        expect(rows[999]?.payload).toEqual({ i: 999 });
        log(backend.label, `1,000-row insert ${(t1 - t0).toFixed(0)} ms, select ${(t2 - t1).toFixed(0)} ms`);
      },
      SLOW,
    );
  });
}

describe("data directory lock (PGlite on disk)", () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "fz-db-lock-"));
    dirs.push(dir);
    return dir;
  };
  const deadPid = (): number => {
    const pid = spawnSync(process.execPath, ["-e", ""]).pid;
    if (!pid) throw new Error("could not spawn a short-lived process");
    return pid;
  };

  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test("refuses a live holder with a clear message, takes over a stale lock", () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".lock"), `${process.ppid}\n`); // our parent is alive
    expect(() => acquireDataDirLock(dir)).toThrow(
      `data directory ${dir} is in use by process ${process.ppid} (another server or CLI); stop it first`,
    );
    writeFileSync(join(dir, ".lock"), `${deadPid()}\n`);
    const lock = acquireDataDirLock(dir);
    expect(readHolder(join(dir, ".lock"))?.pid).toBe(process.pid);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUseError); // same process, still held
    lock.release();
    expect(existsSync(join(dir, ".lock"))).toBe(false);
    // Our own pid in a lock we do not hold (e.g. pid 1 again after a container restart) is stale.
    writeFileSync(join(dir, ".lock"), `${process.pid}\n`);
    acquireDataDirLock(dir).release();
  });

  test(
    "openOrm refuses a second open of the same dir while the first is open; data survives reopening",
    async () => {
      const dir = tempDir();
      const t0 = performance.now();
      const first = await openOrm({ entities, migrationsPath, pgliteDir: dir });
      log("PGlite on disk", `first open (initdb) ${(performance.now() - t0).toFixed(0)} ms`);
      try {
        await migrate(first);
        await first.em.fork().persistAndFlush(first.em.fork().create(ThingSchema, thing("kept")));
        await expect(openOrm({ entities, migrationsPath, pgliteDir: dir })).rejects.toThrow(
          new RegExp(
            `^data directory ${dir} is in use by process ${process.pid} \\(another server or CLI\\); stop it first$`,
          ),
        );
      } finally {
        await closeOrm(first);
      }
      expect(existsSync(join(dir, ".lock"))).toBe(false);

      writeFileSync(join(dir, ".lock"), `${deadPid()}\n`); // as if a crashed server left it
      const t1 = performance.now();
      const second = await openOrm({ entities, migrationsPath, pgliteDir: dir });
      log("PGlite on disk", `reopen ${(performance.now() - t1).toFixed(0)} ms`);
      try {
        expect(readHolder(join(dir, ".lock"))?.pid).toBe(process.pid);
        expect(await migrate(second)).toEqual([]);
        expect((await second.em.fork().findOneOrFail(ThingSchema, "kept")).name).toBe("thing kept");
      } finally {
        await closeOrm(second);
      }
      expect(existsSync(join(dir, ".lock"))).toBe(false);
    },
    SLOW,
  );
});
