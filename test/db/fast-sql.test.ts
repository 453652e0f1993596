import { TableNotFoundException } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/postgresql";
import { beforeEach, describe, expect, test } from "vitest";
import { preparedRows, StatementNames, statementNames } from "../../src/db/fast-sql.ts";
import { sqlRows } from "../../src/db/sql.ts";
import { uuidv7 } from "../../src/domain/ids.ts";
import { resetDatabase, usingPostgres } from "../support/database.ts";
import { insertRow, residentValues } from "../support/rows.ts";

// The hot reads' path (src/db/fast-sql.ts): a parameterized statement straight on MikroORM's pool, named (prepared
// once per connection) on PostgreSQL; on the call's transaction when it has one.
let orm: MikroORM;
let resident: Record<string, unknown>;

const BY_SID = `select sid, last_name, created_at from "digital_resident" where sid = $1`;
const BY_LAST_NAME = `select sid from "digital_resident" where last_name = $1`;

beforeEach(async () => {
  orm = await resetDatabase();
  resident = await insertRow(orm, "DigitalResident", residentValues("ada", { last_name: "O'Brien" }));
});

const insertResident = (em: ReturnType<MikroORM["em"]["fork"]>, sid: string) =>
  sqlRows(
    em,
    `insert into "digital_resident" (sid, resident_id, email, first_name, last_name, created_at, updated_at)
     values (?, ?, 'p@example.org', 'P', 'Pending', now(), now())`,
    [sid, `FZ-${sid}`],
  );

describe("prepared reads on the pool", () => {
  test("rows come back exactly as sqlRows returns them", async () => {
    const star = `select * from "digital_resident" where sid = `;
    const fast = await preparedRows(orm.em.fork(), `${star}$1`, [resident["sid"]]);
    const raw = await sqlRows(orm.em.fork(), `${star}?`, [resident["sid"]]);
    expect(fast).toHaveLength(1);
    expect(fast).toEqual(raw);
  });

  test("values are parameters: quotes and SQL in a value are only compared, never run", async () => {
    expect(await preparedRows(orm.em.fork(), BY_LAST_NAME, ["O'Brien"])).toEqual([{ sid: resident["sid"] }]);
    expect(await preparedRows(orm.em.fork(), BY_LAST_NAME, ["x' or '1'='1"])).toEqual([]);
    expect(await preparedRows(orm.em.fork(), BY_LAST_NAME, ["'; delete from digital_resident; --"])).toEqual([]);
    expect(await preparedRows(orm.em.fork(), BY_SID, [resident["sid"]])).toHaveLength(1);
  });

  test.runIf(usingPostgres)(
    "on PostgreSQL a statement is prepared once per connection under its name and executed again with new values",
    async () => {
      const em = orm.em.fork();
      await em.begin(); // one connection for the whole test: the transaction's
      const prepared = () =>
        preparedRows<{ name: string; statement: string; types: string[]; runs: number }>(
          em,
          `select name, statement, parameter_types::text[] as types, (generic_plans + custom_plans)::int as runs
             from pg_prepared_statements where statement = $1`,
          [BY_SID],
        );
      try {
        // The connection may have run it for an earlier test already (then it was prepared then).
        const before = (await prepared())[0]?.runs ?? 0;
        for (const sid of [resident["sid"], "nobody", resident["sid"]]) await preparedRows(em, BY_SID, [sid]);
        // One statement, made from the protocol (not SQL PREPARE), its text with $1 and no value in it.
        expect(await prepared()).toEqual([
          { name: statementNames.nameOf(BY_SID), statement: BY_SID, types: ["text"], runs: before + 3 },
        ]);
      } finally {
        await em.rollback();
      }
    },
  );

  test("inside a transaction a read sees the call's own uncommitted rows", async () => {
    const em = orm.em.fork();
    const sid = uuidv7();
    await em.begin();
    try {
      await insertResident(em, sid);
      expect(await preparedRows(em, BY_SID, [sid])).toHaveLength(1);
    } finally {
      await em.rollback();
    }
    expect(await preparedRows(orm.em.fork(), BY_SID, [sid])).toEqual([]);
  });

  test("outside a transaction a read never runs inside another call's open transaction", async () => {
    const writer = orm.em.fork();
    const sid = uuidv7();
    await writer.begin();
    let settled = false;
    let pending: Promise<unknown[]> | null = null;
    try {
      await insertResident(writer, sid);
      pending = preparedRows(orm.em.fork(), BY_SID, [sid]).finally(() => {
        settled = true;
      });
      if (usingPostgres) {
        // Another pooled connection: the uncommitted row is not there.
        expect(await pending).toEqual([]);
      } else {
        // PGlite has one connection, which the transaction holds: the read waits for it to end.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(settled).toBe(false);
      }
    } finally {
      await writer.commit();
    }
    if (!usingPostgres) expect(await pending).toHaveLength(1);
    expect(await preparedRows(orm.em.fork(), BY_SID, [sid])).toHaveLength(1);
  });

  test("a failing statement throws MikroORM's exception and gives its connection back", async () => {
    await expect(preparedRows(orm.em.fork(), `select * from "no_such_table" where sid = $1`, ["x"])).rejects.toThrow(
      TableNotFoundException,
    );
    // More reads than the pool has connections (10 on PostgreSQL, 1 on PGlite): none was kept by the failure.
    for (let i = 0; i < 12; i++) {
      await expect(
        preparedRows(orm.em.fork(), `select * from "no_such_table" where sid = $1`, ["x"]),
      ).rejects.toThrow();
    }
    const reads = Array.from({ length: 12 }, () => preparedRows(orm.em.fork(), BY_SID, [resident["sid"]]));
    expect((await Promise.all(reads)).every((rows) => rows.length === 1)).toBe(true);
  });
});

describe("statement names", () => {
  test("a text keeps its name; another text gets another one; past the cap texts get none", () => {
    const names = new StatementNames(2);
    const a = names.nameOf("select 1");
    const b = names.nameOf("select 2");
    expect(a).toEqual(expect.any(String));
    expect(b).toEqual(expect.any(String));
    expect(b).not.toBe(a);
    expect(names.nameOf("select 1")).toBe(a);
    expect(names.nameOf("select 3")).toBeUndefined();
    expect(names.nameOf("select 2")).toBe(b);
  });
});
