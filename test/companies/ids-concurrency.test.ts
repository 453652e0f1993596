import type { MikroORM } from "@mikro-orm/postgresql";
import { beforeEach, describe, expect, test } from "vitest";
import { resetDatabase, usingPostgres } from "../support/database.ts";
import { companyInUse, mint, numberOf, setCounter } from "./ids-support.ts";

// Concurrent company creation (issue 16, "Ids"): on PostgreSQL the transactions really overlap; the Counter row
// lock orders them, so every id is unique and each kind is numbered without gaps within the year.
let orm: MikroORM;
const now = new Date("2026-11-25T12:00:00.000Z");

beforeEach(async () => {
  orm = await resetDatabase();
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const sorted = (ids: string[]) => ids.map(numberOf).sort((a, b) => a - b);

describe.runIf(usingPostgres)("concurrent createCompanyRow (PostgreSQL)", () => {
  test("30 companies and 30 cooperatives at once: unique ids and external ids, each kind exactly 1..30", async () => {
    const rows = await Promise.all(
      range(1, 60).map((i) => mint(orm, now, { company_type: i % 2 === 0 ? "coop_standard_fzc" : "startup_fzc" })),
    );
    const companies = rows.filter((r) => r.company_id.includes("-Y")).map((r) => r.company_id);
    const coops = rows.filter((r) => r.company_id.includes("-P")).map((r) => r.company_id);
    expect(sorted(companies)).toEqual(range(1, 30));
    expect(sorted(coops)).toEqual(range(1, 30));
    expect(new Set(rows.map((r) => r.external_id)).size).toBe(60);
    expect(new Set(rows.map((r) => r.external_id_counter)).size).toBe(60);
  });

  test("30 at once across the rollover with ids in use: unique, the free numbers in order", async () => {
    await setCounter(orm, "FZ-2026-Y", 999_990);
    for (const id of ["FZ-2026-Y999995", "FZ-2026-Y000001", "FZ-2026-Y000010"]) await companyInUse(orm, id);
    const rows = await Promise.all(range(1, 30).map(() => mint(orm, now)));
    const expected = [...range(999_991, 999_999), ...range(1, 24)].filter((n) => ![999_995, 1, 10].includes(n));
    expect(sorted(rows.map((r) => r.company_id))).toEqual([...expected].sort((a, b) => a - b));
    expect(new Set(rows.map((r) => r.company_id)).size).toBe(30);
  });
});
