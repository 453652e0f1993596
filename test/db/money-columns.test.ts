import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CreditBalanceEntity, ENTITIES } from "../../generated/entities.ts";
import { uuidv7 } from "../../src/domain/ids.ts";
import { addMoney, moneyFromDb } from "../../src/domain/money.ts";
import { resetDatabase } from "../support/database.ts";

// Money is numeric(18,2) in every table (issue 12, item 2): exact in the database, numbers in TypeScript.
let orm: MikroORM;

beforeAll(async () => {
  orm = await resetDatabase();
});
afterAll(async () => {
  await orm.em.fork().execute("delete from credit_balance");
});

function moneyProperties(): { table: string; column: string; type: string }[] {
  const out: { table: string; column: string; type: string }[] = [];
  for (const entity of ENTITIES) {
    const meta = entity.meta;
    for (const [name, prop] of Object.entries(meta.properties)) {
      const columnType = (prop as { columnType?: string }).columnType ?? "";
      if (columnType.startsWith("numeric")) out.push({ table: meta.tableName ?? "", column: name, type: columnType });
    }
  }
  return out;
}

describe("money columns", () => {
  test("every x-money and x-decimal field is a numeric column in the migrated database", async () => {
    const expected = moneyProperties();
    expect(expected.length).toBeGreaterThanOrEqual(45);
    const rows = await orm.em.fork().execute<{ table_name: string; column_name: string; p: number; s: number }[]>(
      `select table_name, column_name, numeric_precision as p, numeric_scale as s from information_schema.columns
        where data_type = 'numeric' and table_schema = current_schema()`,
    );
    const actual = new Set(rows.map((r) => `${r.table_name}.${r.column_name} numeric(${r.p},${r.s})`));
    for (const { table, column, type } of expected) expect(actual).toContain(`${table}.${column} ${type}`);
    const doubles = await orm.em.fork().execute<{ n: string }[]>(
      `select count(*) as n from information_schema.columns where table_schema = current_schema()
        and data_type = 'double precision' and (column_name like '%amount%' or column_name like '%balance%')`,
    );
    expect(Number(doubles[0]?.n)).toBe(0);
  });

  test("0.1 + 0.2 credits is stored and read back as 0.30, a number", async () => {
    const em = orm.em.fork();
    const sid = uuidv7();
    em.create(CreditBalanceEntity, { sid, user_id: "u-money", balance: addMoney(0.1, 0.2) });
    await em.flush();
    const row = await orm.em.fork().findOneOrFail(CreditBalanceEntity, { sid });
    expect(row.balance).toBe(0.3);
    expect(typeof row.lifetime_spent).toBe("number");
    const [raw] = await orm.em
      .fork()
      .execute<{ balance: string }[]>("select balance from credit_balance where sid = ?", [sid]);
    expect(raw?.balance).toBe("0.30");
    expect(moneyFromDb(raw?.balance ?? "")).toBe(0.3);
  });

  test("1,000 debits of 0.01 in SQL take 10.00 to exactly 0.00", async () => {
    const em = orm.em.fork();
    const sid = uuidv7();
    em.create(CreditBalanceEntity, { sid, user_id: "u-debits", balance: 10 });
    await em.flush();
    for (let i = 0; i < 1000; i++) {
      await orm.em.fork().execute("update credit_balance set balance = balance - ? where sid = ?", [0.01, sid]);
    }
    const row = await orm.em.fork().findOneOrFail(CreditBalanceEntity, { sid });
    expect(row.balance).toBe(0);
  });
});
