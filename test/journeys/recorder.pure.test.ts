import { describe, expect, test } from "vitest";
import { expectReached, observeResult, reachedStates } from "../support/reached.ts";

// The recorder walks answers against the served result schemas: enum-typed fields nested in objects, arrays and
// nullable branches are recorded under their enumeration's name; values outside the enumeration are not.
expectReached({});

describe("state recorder", () => {
  test("records enum values by schema, nested and in lists", () => {
    observeResult("zonecompany.get", { id: "FZC-1", status: "active" });
    observeResult("companyrole.find", { items: [{ role: "founder", valid_to: null }], next_cursor: null });
    observeResult("zonecompany.get", { id: "x", status: "not_a_state" });
    observeResult("no.such_method", { status: "voided" });
    const company = reachedStates().get("CompanyStatus");
    expect(company?.has("active")).toBe(true);
    expect(company?.has("not_a_state")).toBe(false);
    expect(company?.has("voided")).toBe(false);
    expect(reachedStates().get("CompanyRoleKind")?.has("founder")).toBe(true);
  });
});
