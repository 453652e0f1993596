import { describe, expect, test } from "vitest";
import { observeResult, reachedStates } from "./reached.ts";

// The recorder without a journey around it: nothing is recorded unless a file declared what it reaches.
describe("state recorder outside journeys", () => {
  test("records nothing when no expectReached was declared", () => {
    observeResult("companyservice.get", { status: "active" });
    expect(reachedStates().size).toBe(0);
  });
});
