import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { counterName, externalId, formattedId, permute48 } from "../../src/domain/formatted-ids.ts";

describe("formatted ids", () => {
  test("resident, company and cooperative ids: prefix, year, kind and six digits", () => {
    expect(formattedId("FZ", 2026, "RA", 1)).toBe("FZ-2026-RA000001");
    expect(formattedId("ZAN", 2027, "Y", 999_999)).toBe("ZAN-2027-Y999999");
    expect(formattedId("FZ", 2026, "P", 42)).toBe("FZ-2026-P000042");
    expect(counterName("FZ", 2026, "RA")).toBe("FZ-2026-RA");
    expect(() => formattedId("FZ", 2026, "RA", 0)).toThrow(RangeError);
    expect(() => formattedId("FZ", 2026, "RA", 1_000_000)).toThrow(RangeError);
  });
});

describe("external ids", () => {
  const key = Buffer.from("7".repeat(64), "hex");

  test("shape: <PREFIX>X- and ten Crockford base-32 characters", () => {
    expect(externalId("FZ", key, 1)).toMatch(/^FZX-[0-9A-HJKMNP-TV-Z]{10}$/);
  });

  test("a permutation: 100,000 consecutive counters give 100,000 different values", () => {
    const seen = new Set<number>();
    for (let c = 1; c <= 100_000; c++) seen.add(permute48(key, c));
    expect(seen.size).toBe(100_000);
  });

  test("not guessable from the counter: consecutive counters look unrelated, and another key gives other ids", () => {
    const a = externalId("FZ", key, 1);
    const b = externalId("FZ", key, 2);
    let sharedPrefix = 0;
    while (a[sharedPrefix] === b[sharedPrefix]) sharedPrefix++;
    expect(sharedPrefix).toBeLessThan(8); // "FZX-" plus at most a few characters by chance
    expect(externalId("FZ", randomBytes(32), 1)).not.toBe(a);
    expect(externalId("FZ", key, 1)).toBe(a); // deterministic under one key
  });
});
