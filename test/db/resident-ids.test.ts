import type { MikroORM } from "@mikro-orm/postgresql";
import { beforeEach, describe, expect, test } from "vitest";
import { takeNumber } from "../../src/repos/counters.ts";
import { takeExternalCounter } from "../../src/repos/external-ids.ts";
import { resetDatabase, usingPostgres } from "../support/database.ts";

// Numbering for formatted ids and the global external-id counter (issue 14, "Ids"): one atomic upsert each, in the
// caller's transaction; concurrent takers never share a number, and a rolled-back taker gives its number back.
let orm: MikroORM;
const now = new Date("2026-11-25T12:00:00.000Z");

beforeEach(async () => {
  orm = await resetDatabase();
});

function inTransaction<T>(work: (em: MikroORM["em"]) => Promise<T>): Promise<T> {
  return orm.em.fork().transactional((em) => work(em));
}

describe("counters", () => {
  test("numbers start at 1 per name and count up; names are independent", async () => {
    expect(await inTransaction((em) => takeNumber(em, "FZ-2026-RA", now))).toBe(1);
    expect(await inTransaction((em) => takeNumber(em, "FZ-2026-RA", now))).toBe(2);
    expect(await inTransaction((em) => takeNumber(em, "FZ-2027-RA", now))).toBe(1);
  });

  test("a rolled-back transaction gives its number back", async () => {
    await expect(
      inTransaction(async (em) => {
        await takeNumber(em, "FZ-2026-RA", now);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await inTransaction((em) => takeNumber(em, "FZ-2026-RA", now))).toBe(1);
  });

  test("the external counter's first mint is 1 and its key never changes", async () => {
    const first = await inTransaction((em) => takeExternalCounter(em, now));
    const second = await inTransaction((em) => takeExternalCounter(em, now));
    expect(first.counter).toBe(1);
    expect(second.counter).toBe(2);
    expect(second.key.equals(first.key)).toBe(true);
    expect(first.key.length).toBe(32);
  });

  test.runIf(usingPostgres)("50 concurrent takers get 50 different numbers and counters", async () => {
    const taken = await Promise.all(
      Array.from({ length: 50 }, () =>
        inTransaction(async (em) => ({
          n: await takeNumber(em, "FZ-2026-RA", now),
          c: (await takeExternalCounter(em, now)).counter,
        })),
      ),
    );
    expect(new Set(taken.map((t) => t.n)).size).toBe(50);
    expect(new Set(taken.map((t) => t.c)).size).toBe(50);
    expect(Math.max(...taken.map((t) => t.n))).toBe(50);
  });
});
