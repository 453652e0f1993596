import { describe, expect, test } from "vitest";
import { observeResult, reachedStates } from "./reached.ts";

// The recorder without a journey around it: nothing is recorded unless a file declared what it reaches.
describe("state recorder outside journeys", () => {
  test("records nothing when no expectReached was declared", () => {
    const before = reachedStates().get("CompanyStatus")?.size ?? 0;
    observeResult("zonecompany.get", { id: "FZC-1", status: "suspended" });
    expect(reachedStates().get("CompanyStatus")?.size ?? 0).toBe(before);
  });
});
