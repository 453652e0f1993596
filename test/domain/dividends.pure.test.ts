import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { dividendHoldings, executionRefusal, splitByOwnership } from "../../src/domain/dividends.ts";

describe("splitByOwnership", () => {
  test("payments always sum exactly to the total and differ from the exact share by less than a cent", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000_000 }),
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 30 }),
        (total, units) => {
          const shares = splitByOwnership(
            total,
            units.map((u, i) => ({ recipientId: `r${i}`, units: u })),
          );
          const all = units.reduce((s, u) => s + u, 0);
          if (all === 0) return shares.length === 0;
          expect(shares.reduce((s, x) => s + x.cents, 0)).toBe(total);
          const held = units.filter((u) => u > 0);
          shares.forEach((s, i) => {
            const exact = (total * (held[i] as number)) / all;
            expect(Math.abs(s.cents - exact)).toBeLessThan(1 + 1e-6 * Math.max(1, exact));
          });
          return true;
        },
      ),
    );
  });

  test("leftover cents go to the largest remainders, ties to the earlier holder", () => {
    // 100 cents over three equal holders: 33.33 each, one cent left for the first
    expect(
      splitByOwnership(
        100,
        ["a", "b", "c"].map((r) => ({ recipientId: r, units: 1 })),
      ),
    ).toEqual([
      { recipientId: "a", cents: 34, ownershipPercentage: 33.333333 },
      { recipientId: "b", cents: 33, ownershipPercentage: 33.333333 },
      { recipientId: "c", cents: 33, ownershipPercentage: 33.333333 },
    ]);
    // 10 cents over 1:2:3 = 1.666, 3.333, 5: remainders .666 (a) and .333 (b): a gets the cent
    expect(
      splitByOwnership(10, [
        { recipientId: "a", units: 1 },
        { recipientId: "b", units: 2 },
        { recipientId: "c", units: 3 },
      ]).map((s) => s.cents),
    ).toEqual([2, 3, 5]);
  });

  test("holders without units are left out; percentages sum to about 100", () => {
    const shares = splitByOwnership(12345, [
      { recipientId: "a", units: 100 },
      { recipientId: "z", units: 0 },
      { recipientId: "b", units: 50 },
    ]);
    expect(shares.map((s) => [s.recipientId, s.cents, s.ownershipPercentage])).toEqual([
      ["a", 8230, 66.666667],
      ["b", 4115, 33.333333],
    ]);
  });
});

describe("dividendHoldings", () => {
  const row = (resident_id: string | null, units: number) => ({
    name: "X",
    email: "x@example.org",
    resident_id,
    units,
    role: "shareholder" as const,
  });

  test("takes rows with units and refuses unbound units or an empty table", () => {
    expect(dividendHoldings([row("A", 3), row("B", 0)])).toEqual([{ recipientId: "A", units: 3 }]);
    expect(dividendHoldings([row("A", 3), row(null, 1)])).toMatchObject({ refusal: "InvalidInput" });
    expect(dividendHoldings([row("B", 0)])).toMatchObject({ refusal: "InvalidInput" });
  });
});

describe("executionRefusal", () => {
  const now = new Date("2026-11-23T10:00:00.000Z");
  test("approved and due pays; proposed pays only once the proposal passed; other states and future dates refuse", () => {
    expect(executionRefusal("approved", false, now, now)).toBeNull();
    expect(executionRefusal("proposed", true, now, now)).toBeNull();
    expect(executionRefusal("proposed", false, now, now)).toMatchObject({ refusal: "InvalidState" });
    for (const s of ["processing", "completed", "cancelled"] as const) {
      expect(executionRefusal(s, true, now, now)).toMatchObject({ refusal: "InvalidState" });
    }
    expect(executionRefusal("approved", false, new Date(now.getTime() + 1), now)).toMatchObject({
      refusal: "InvalidState",
    });
  });
});
