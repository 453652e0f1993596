import { describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config.ts";
import {
  creationRefusal,
  executeRefusal,
  formatResolutionNumber,
  PASSING_COMPARISON,
  powerSnapshot,
  type TallyInput,
  tally,
  tallyRefusal,
  voteRefusal,
  votingEndsAt,
} from "../../src/domain/proposals.ts";

const STATUSES = ["draft", "active", "passed", "rejected", "expired", "executed"] as const;

const ordinary = (over: Partial<TallyInput> = {}): TallyInput => ({
  kind: "ordinary",
  snapshot: 100,
  quorumPercentage: 50,
  passingThreshold: 50,
  votesFor: 0,
  votesAgainst: 0,
  votesAbstain: 0,
  ...over,
});
const special = (over: Partial<TallyInput> = {}) => ordinary({ kind: "special", passingThreshold: 75, ...over });

describe("tally: passing share per kind", () => {
  test("the comparison per kind: ordinary and board more than, special at least", () => {
    expect(PASSING_COMPARISON).toEqual({ ordinary: "more_than", special: "at_least", board: "more_than" });
  });

  test("ordinary: exactly 50 % for is rejected, just above passes", () => {
    expect(tally(ordinary({ votesFor: 50, votesAgainst: 50 }))).toMatchObject({ passed: false, status: "rejected" });
    expect(tally(ordinary({ votesFor: 51, votesAgainst: 49 }))).toMatchObject({ passed: true, status: "passed" });
    expect(tally(ordinary({ votesFor: 1, votesAgainst: 1, votesAbstain: 98 })).passed).toBe(false);
  });

  test("special: exactly 75 % for passes, just below is rejected", () => {
    expect(tally(special({ votesFor: 75, votesAgainst: 25 }))).toMatchObject({ passed: true, forPercentage: 75 });
    expect(tally(special({ snapshot: 4, votesFor: 3, votesAgainst: 1 })).passed).toBe(true);
    expect(tally(special({ votesFor: 74, votesAgainst: 26 })).passed).toBe(false);
    expect(tally(special({ votesFor: 74.99, votesAgainst: 25.01 })).passed).toBe(false);
  });

  test("board: more than its threshold, like ordinary", () => {
    const board = (f: number, a: number) =>
      tally(ordinary({ kind: "board", snapshot: 4, votesFor: f, votesAgainst: a }));
    expect(board(2, 2).passed).toBe(false);
    expect(board(3, 1).passed).toBe(true);
  });

  test("abstentions count toward the quorum, not toward the passing share", () => {
    const t = tally(ordinary({ votesFor: 11, votesAgainst: 10, votesAbstain: 29 }));
    expect(t).toMatchObject({ totalVoted: 50, quorumReached: true, passed: true });
    expect(t.forPercentage).toBeCloseTo((11 / 21) * 100);
    expect(tally(ordinary({ votesAbstain: 100 }))).toMatchObject({
      quorumReached: true,
      passed: false,
      forPercentage: 0,
    });
  });

  test("threshold 0 still needs someone for (more than 0 % for)", () => {
    expect(tally(ordinary({ passingThreshold: 0, votesAgainst: 60 })).passed).toBe(false);
    expect(tally(ordinary({ passingThreshold: 0, votesFor: 1, votesAgainst: 59 })).passed).toBe(true);
  });
});

describe("tally: quorum", () => {
  test("quorum exactly met passes; one unit short is rejected", () => {
    expect(tally(ordinary({ votesFor: 50 }))).toMatchObject({
      quorumReached: true,
      passed: true,
      turnoutPercentage: 50,
    });
    expect(tally(ordinary({ votesFor: 49 }))).toMatchObject({ quorumReached: false, passed: false });
  });

  test("exact with fractions of a third: 1 of 3 against a 33 % quorum", () => {
    expect(tally(ordinary({ snapshot: 3, quorumPercentage: 33, votesFor: 1 })).quorumReached).toBe(true);
    expect(tally(ordinary({ snapshot: 3, quorumPercentage: 34, votesFor: 1 })).quorumReached).toBe(false);
  });

  test("quorum 100 needs every unit; quorum 0 is met by any vote but not by none", () => {
    expect(tally(ordinary({ quorumPercentage: 100, votesFor: 99 })).quorumReached).toBe(false);
    expect(tally(ordinary({ quorumPercentage: 100, votesFor: 99, votesAgainst: 1 })).quorumReached).toBe(true);
    expect(tally(ordinary({ quorumPercentage: 0 })).quorumReached).toBe(true);
    expect(tally(ordinary({ snapshot: 0, quorumPercentage: 0 })).quorumReached).toBe(false);
  });
});

describe("tally refusal", () => {
  const at = (iso: string) => new Date(iso);
  const base = {
    status: "active" as const,
    votingEndsAt: at("2026-12-01T00:00:00.000Z"),
    snapshot: 10,
    totalVoted: 3,
  };

  test("before the end with power unvoted is refused; at the end instant it is allowed", () => {
    expect(tallyRefusal({ ...base, now: at("2026-11-30T23:59:59.999Z") })).toMatchObject({ refusal: "InvalidState" });
    expect(tallyRefusal({ ...base, now: at("2026-12-01T00:00:00.000Z") })).toBeNull();
  });

  test("before the end once every unit voted is allowed", () => {
    expect(tallyRefusal({ ...base, totalVoted: 10, now: at("2026-11-25T00:00:00.000Z") })).toBeNull();
  });

  test("only an active proposal is tallied", () => {
    for (const s of STATUSES) {
      const r = tallyRefusal({ ...base, status: s, now: at("2026-12-02T00:00:00.000Z") });
      if (s === "active") expect(r).toBeNull();
      else expect(r).toMatchObject({ refusal: "InvalidState", details: { status: s } });
    }
  });
});

describe("votes", () => {
  const starts = new Date("2026-11-23T10:00:00.000Z");
  const ends = votingEndsAt(starts, 7);
  const v = (over: Partial<Parameters<typeof voteRefusal>[0]> = {}) =>
    voteRefusal({
      status: "active",
      now: new Date("2026-11-24T00:00:00.000Z"),
      votingStartsAt: starts,
      votingEndsAt: ends,
      value: "for",
      allowAbstention: false,
      power: 10,
      ...over,
    });

  test("the window is [voting_starts_at, voting_ends_at): the end instant is closed", () => {
    expect(ends.toISOString()).toBe("2026-11-30T10:00:00.000Z");
    expect(v({ now: new Date(ends.getTime() - 1) })).toBeNull();
    expect(v({ now: ends })).toMatchObject({ refusal: "InvalidState" });
    expect(v({ now: starts })).toBeNull();
  });

  test("abstain only when allowed; no power at the snapshot is Forbidden; not active is InvalidState", () => {
    expect(v({ value: "abstain" })).toMatchObject({ refusal: "InvalidInput" });
    expect(v({ value: "abstain", allowAbstention: true })).toBeNull();
    expect(v({ power: null })).toMatchObject({ refusal: "Forbidden" });
    expect(v({ power: 0 })).toMatchObject({ refusal: "Forbidden" });
    for (const s of STATUSES.filter((x) => x !== "active")) expect(v({ status: s })?.refusal).toBe("InvalidState");
  });
});

describe("power snapshot", () => {
  const cap = [
    { resident_id: "R1", units: 60, role: null },
    { resident_id: "R2", units: 30, role: "shareholder" },
    { resident_id: "R1", units: 5, role: null },
    { resident_id: null, units: 5, role: null },
    { resident_id: "R3", units: 0, role: "director" },
  ];
  const roles = [
    { subject_id: "R1", role: "shareholder" },
    { subject_id: "R3", role: "director" },
    { subject_id: "R4", role: "director" },
    { subject_id: "R4", role: "founder" },
    { subject_id: "M1", role: "founding_member" },
    { subject_id: "M2", role: "platinum_member" },
    { subject_id: "M3", role: "founding_member" },
  ];

  test("standard: the sum of shareholder units; units without a resident count in the total only", () => {
    const s = powerSnapshot("ordinary", "standard", cap, roles);
    expect(s.total).toBe(100);
    expect([...s.powers]).toEqual([
      ["R1", 65],
      ["R2", 30],
    ]);
  });

  test("cooperative: one unit per open founding_member and platinum_member role", () => {
    const s = powerSnapshot("special", "cooperative", cap, roles);
    expect(s.total).toBe(3);
    expect(Object.fromEntries(s.powers)).toEqual({ M1: 1, M2: 1, M3: 1 });
  });

  test("board: current directors at one each, whatever the voting model", () => {
    for (const model of ["standard", "cooperative"] as const) {
      const s = powerSnapshot("board", model, cap, roles);
      expect(s.total).toBe(2);
      expect(Object.fromEntries(s.powers)).toEqual({ R3: 1, R4: 1 });
    }
  });
});

describe("creation, execution, numbering, configuration", () => {
  test("voting_days 1 to 90 and a non-empty title", () => {
    expect(creationRefusal({ title: "x", votingDays: 1 })).toBeNull();
    expect(creationRefusal({ title: "x", votingDays: 90 })).toBeNull();
    for (const d of [0, 91, 1.5, -1])
      expect(creationRefusal({ title: "x", votingDays: d })).toMatchObject({
        refusal: "InvalidInput",
        details: { field: "voting_days" },
      });
    expect(creationRefusal({ title: "  ", votingDays: 3 })).toMatchObject({ details: { field: "title" } });
  });

  test("only passed proposals are executed", () => {
    for (const s of STATUSES) {
      if (s === "passed") expect(executeRefusal(s)).toBeNull();
      else expect(executeRefusal(s)).toMatchObject({ refusal: "InvalidState", details: { status: s } });
    }
  });

  test("resolution numbers RES-<year>-<4 digits>", () => {
    expect(formatResolutionNumber(2026, 1)).toBe("RES-2026-0001");
    expect(formatResolutionNumber(2026, 12345)).toBe("RES-2026-12345");
  });

  test("configuration: defaults per kind, overrides, and integers 0-100 only", () => {
    const d = loadConfig({}).proposals;
    expect(d.thresholds).toEqual({
      ordinary: { quorum: 50, passing: 50 },
      special: { quorum: 50, passing: 75 },
      board: { quorum: 50, passing: 50 },
    });
    expect(d.expiryHours).toBe(168);
    const o = loadConfig({ PROPOSAL_SPECIAL_PASSING: "80", PROPOSAL_ORDINARY_QUORUM: "0" }).proposals.thresholds;
    expect(o.special.passing).toBe(80);
    expect(o.ordinary.quorum).toBe(0);
    for (const bad of ["101", "-1", "50.5", "x"])
      expect(() => loadConfig({ PROPOSAL_BOARD_QUORUM: bad })).toThrow(/PROPOSAL_BOARD_QUORUM/);
    expect(() => loadConfig({ PROPOSAL_EXPIRY_HOURS: "0" })).toThrow(/PROPOSAL_EXPIRY_HOURS/);
  });
});
