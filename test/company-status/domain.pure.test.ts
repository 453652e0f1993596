import { describe, expect, test } from "vitest";
import { COMPANY_STATUS_ALLOWS, statusAfterSuspension, suspensionRefusal } from "../../src/domain/company-status.ts";
import { companyRenewalRefusal } from "../../src/domain/subscriptions.ts";

// The pure rules of the company status lifecycle (no database).

describe("status rules (domain)", () => {
  test("only active or inactive companies are suspended, only suspended ones lifted", () => {
    expect(suspensionRefusal("active", true)).toBeNull();
    expect(suspensionRefusal("inactive", true)).toBeNull();
    for (const s of ["suspended", "voided", "draft", "pending_signatures"] as const) {
      expect(suspensionRefusal(s, true)).toMatchObject({ refusal: "InvalidState", details: { status: s } });
    }
    expect(suspensionRefusal("suspended", false)).toBeNull();
    for (const s of ["active", "inactive", "voided", "draft"] as const) {
      expect(suspensionRefusal(s, false)).toMatchObject({ refusal: "InvalidState", details: { status: s } });
    }
  });

  test("a lifted suspension lands active while the subscription runs, inactive after its end", () => {
    const now = new Date("2026-11-23T10:00:00.000Z");
    expect(statusAfterSuspension(null, now)).toBe("active");
    expect(statusAfterSuspension(new Date("2026-11-23T10:00:01.000Z"), now)).toBe("active");
    expect(statusAfterSuspension(now, now)).toBe("inactive");
  });
});

describe("renewal and operation by status", () => {
  test("inactive renews but does not operate; suspended and voided do neither", () => {
    expect(COMPANY_STATUS_ALLOWS.inactive).toContain("renew");
    expect(COMPANY_STATUS_ALLOWS.inactive).not.toContain("operate");
    for (const s of ["suspended", "voided"] as const) {
      expect(COMPANY_STATUS_ALLOWS[s]).toEqual(["read"]);
      expect(companyRenewalRefusal(s)).toMatchObject({ refusal: "InvalidState" });
    }
    expect(companyRenewalRefusal("inactive")).toBeNull();
  });
});
