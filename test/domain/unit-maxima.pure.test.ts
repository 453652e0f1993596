import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ResolutionKind } from "../../generated/types.ts";
import { capTable } from "../../src/domain/entity-drafts.ts";
import { PASSING_COMPARISON, powerSnapshot, tally } from "../../src/domain/proposals.ts";
import { issueUnits } from "../../src/domain/shareholder-invites.ts";
import { fromMicro, isUnitAmount, MAX_UNITS, sumUnits, toMicro } from "../../src/domain/units.ts";

// Issue 29 item 7: every value the spec admits (units 0 to MAX_UNITS with 6 decimals, a cap table of at most
// MAX_UNITS in all, whole percentages) is tallied exactly: the decision equals a BigInt reference on micro-units.

const MAX_MICRO = toMicro(MAX_UNITS);
const KINDS: ResolutionKind[] = ["ordinary", "special", "board"];

/** The reference decision, on integers only. */
function reference(
  kind: ResolutionKind,
  micro: { snapshot: bigint; f: bigint; a: bigint; x: bigint },
  quorum: number,
  threshold: number,
): boolean {
  const decided = micro.f + micro.a;
  const voted = decided + micro.x;
  const quorumMet = voted * 100n >= BigInt(quorum) * micro.snapshot && (micro.snapshot > 0n || voted > 0n);
  const scaled = micro.f * 100n;
  const bar = BigInt(threshold) * decided;
  const shareMet = decided > 0n && (PASSING_COMPARISON[kind] === "at_least" ? scaled >= bar : scaled > bar);
  return quorumMet && shareMet;
}

/** Tallies micro-unit figures the way the service does: units as doubles, the total voted by sumUnits. */
function decide(kind: ResolutionKind, m: { snapshot: number; f: number; a: number; x: number }, q: number, p: number) {
  return tally({
    kind,
    snapshot: fromMicro(m.snapshot),
    quorumPercentage: q,
    passingThreshold: p,
    votesFor: fromMicro(m.f),
    votesAgainst: fromMicro(m.a),
    votesAbstain: fromMicro(m.x),
  });
}

const big = (m: { snapshot: number; f: number; a: number; x: number }) => ({
  snapshot: BigInt(m.snapshot),
  f: BigInt(m.f),
  a: BigInt(m.a),
  x: BigInt(m.x),
});

const percent = fc.integer({ min: 0, max: 100 });
const kind = fc.constantFrom(...KINDS);

/** 1 to 30 holdings in micro-units whose total stays within MAX_UNITS, each with a vote or none. */
const distribution = fc.integer({ min: 1, max: 30 }).chain((n) =>
  fc.array(
    fc.record({
      micro: fc.oneof(fc.integer({ min: 0, max: Math.floor(MAX_MICRO / n) }), fc.constant(Math.floor(MAX_MICRO / n))),
      vote: fc.constantFrom("for", "against", "abstain", null),
    }),
    { minLength: n, maxLength: n },
  ),
);

describe("units: the admitted values", () => {
  test("every 6-decimal value up to the maximum round-trips through micro-units exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_MICRO }), (m) => {
        const units = fromMicro(m);
        return isUnitAmount(units) && toMicro(units) === m;
      }),
    );
  });

  test("above the maximum, non-finite, negative or finer than 6 decimals is refused", () => {
    for (const units of [1e308, MAX_UNITS + 0.000001, MAX_UNITS + 1, Number.POSITIVE_INFINITY, Number.NaN, -1, 1e-7]) {
      expect(isUnitAmount(units), String(units)).toBe(false);
    }
    expect(isUnitAmount(MAX_UNITS)).toBe(true);
    expect(isUnitAmount(0.000001)).toBe(true);
  });

  test("a draft's cap table passing the maximum in all is InvalidInput; at the maximum it is kept", () => {
    const row = (email: string, units: number) => ({ name: "H", email, resident_id: null, units, role: null });
    expect(capTable("company", [row("a@x.org", 6e8), row("b@x.org", 4e8)])).toHaveLength(2);
    expect(capTable("company", [row("a@x.org", 6e8), row("b@x.org", 4e8 + 0.000001)])).toMatchObject({
      refusal: "InvalidInput",
    });
    expect(capTable("company", [row("a@x.org", 1e308)])).toMatchObject({ refusal: "InvalidInput" });
  });

  test("issuing units past the maximum is InvalidState; up to it they are added exactly", () => {
    const holder = { residentId: "DR-1", name: "A", email: "a@x.org" };
    const table = [{ name: "A", email: "a@x.org", resident_id: "DR-1", units: 0.1, role: null }];
    expect(issueUnits(table, holder, 0.2)).toEqual([{ ...table[0], units: 0.3 }]);
    expect(issueUnits(table, holder, MAX_UNITS - 0.1)).toEqual([{ ...table[0], units: MAX_UNITS }]);
    expect(issueUnits(table, holder, MAX_UNITS)).toMatchObject({ refusal: "InvalidState" });
  });
});

describe("tally: exact for every admitted distribution", () => {
  test("the decision equals the BigInt reference for random holdings and votes up to the maximum", () => {
    fc.assert(
      fc.property(distribution, kind, percent, percent, (holdings, k, q, p) => {
        const rows = holdings.map((h, i) => ({
          name: `H${i}`,
          email: `h${i}@x.org`,
          resident_id: `DR-${i}`,
          units: fromMicro(h.micro),
          role: null,
        }));
        const snap = powerSnapshot("ordinary", "standard", rows, []);
        const sum = (v: string) => holdings.filter((h) => h.vote === v && h.micro > 0).reduce((s, h) => s + h.micro, 0);
        const m = { snapshot: toMicro(snap.total), f: sum("for"), a: sum("against"), x: sum("abstain") };
        expect(m.snapshot).toBe(holdings.reduce((s, h) => s + h.micro, 0));
        const out = decide(k, m, q, p);
        expect(out.passed).toBe(reference(k, big(m), q, p));
        expect(toMicro(out.totalVoted)).toBe(m.f + m.a + m.x);
        expect(toMicro(sumUnits(fromMicro(m.f), fromMicro(m.a), fromMicro(m.x)))).toBe(m.f + m.a + m.x);
      }),
      { numRuns: 500 },
    );
  });

  test("a for-share exactly at the threshold, and one micro-unit either side, decides as the reference", () => {
    fc.assert(
      fc.property(
        kind,
        fc.integer({ min: 1, max: 99 }),
        fc.integer({ min: 1, max: Math.floor(MAX_MICRO / 100) }),
        fc.constantFrom(-1, 0, 1),
        (k, p, unit, nudge) => {
          const f = p * unit + nudge;
          const a = (100 - p) * unit;
          const m = { snapshot: f + a, f, a, x: 0 };
          const out = decide(k, m, 0, p);
          expect(out.passed).toBe(reference(k, big(m), 0, p));
          if (nudge === 0) expect(out.passed).toBe(PASSING_COMPARISON[k] === "at_least");
          else expect(out.passed).toBe(nudge > 0);
        },
      ),
    );
  });

  test("turnout exactly at the quorum, and one micro-unit short, decides as the reference", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: Math.floor(MAX_MICRO / 100) }),
        fc.constantFrom(-1, 0),
        (q, unit, nudge) => {
          const snapshot = 100 * unit;
          const f = q * unit + nudge;
          const m = { snapshot, f, a: 0, x: 0 };
          const out = decide("ordinary", m, q, 50);
          expect(out.quorumReached).toBe(nudge === 0);
          expect(out.passed).toBe(reference("ordinary", big(m), q, 50));
        },
      ),
    );
  });

  test("the issue's case: the sole holder of the maximum votes for and it passes with for_percentage 100", () => {
    const out = tally({
      kind: "ordinary",
      snapshot: MAX_UNITS,
      quorumPercentage: 50,
      passingThreshold: 50,
      votesFor: MAX_UNITS,
      votesAgainst: 0,
      votesAbstain: 0,
    });
    expect(out).toMatchObject({ passed: true, status: "passed", forPercentage: 100, turnoutPercentage: 100 });
  });
});
