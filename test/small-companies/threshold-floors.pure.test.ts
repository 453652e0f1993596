import { describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config.ts";

/*
 * Issue 30: configuration may make a seed rule stricter, never weaker. Seed 001 Limits fix an ordinary resolution
 * at "more than 50 percent" and a special one at "at least 75 percent"; a passing threshold below them stops the
 * start with a message naming the variable and the seed's rule.
 */

describe("passing thresholds have the seed's floors", () => {
  test("PROPOSAL_SPECIAL_PASSING: 75 and 100 start, 74 and 0 are refused naming the seed rule", () => {
    expect(loadConfig({ PROPOSAL_SPECIAL_PASSING: "75" }).proposals.thresholds.special.passing).toBe(75);
    expect(loadConfig({ PROPOSAL_SPECIAL_PASSING: "100" }).proposals.thresholds.special.passing).toBe(100);
    for (const weaker of ["74", "50", "0"]) {
      expect(() => loadConfig({ PROPOSAL_SPECIAL_PASSING: weaker })).toThrow(
        new RegExp(`PROPOSAL_SPECIAL_PASSING must be at least 75 .*at least 75 percent.*never weaker.*"${weaker}"`),
      );
    }
  });

  test("PROPOSAL_ORDINARY_PASSING: 50 (more than 50 percent) and 51 start, 49 is refused", () => {
    expect(loadConfig({ PROPOSAL_ORDINARY_PASSING: "50" }).proposals.thresholds.ordinary.passing).toBe(50);
    expect(loadConfig({ PROPOSAL_ORDINARY_PASSING: "51" }).proposals.thresholds.ordinary.passing).toBe(51);
    expect(() => loadConfig({ PROPOSAL_ORDINARY_PASSING: "49" })).toThrow(
      /PROPOSAL_ORDINARY_PASSING must be at least 50 .*more than 50 percent/,
    );
  });

  test("settings without a seed floor keep the whole 0 to 100 range", () => {
    const t = loadConfig({ PROPOSAL_BOARD_PASSING: "0", PROPOSAL_SPECIAL_QUORUM: "0", PROPOSAL_ORDINARY_QUORUM: "0" })
      .proposals.thresholds;
    expect(t.board.passing).toBe(0);
    expect(t.special.quorum).toBe(0);
    expect(t.ordinary.quorum).toBe(0);
    expect(() => loadConfig({ PROPOSAL_SPECIAL_PASSING: "101" })).toThrow(/from 0 to 100/);
  });

  test("the defaults are the seed's values", () => {
    const t = loadConfig({}).proposals.thresholds;
    expect(t.special.passing).toBe(75);
    expect(t.ordinary.passing).toBe(50);
  });
});
