import { describe, expect, test } from "vitest";
import type { CompanyStatus } from "../../generated/types.ts";
import { COMPANY_STATUS_ALLOWS, companyStatusRefusal, isLiveCompanyStatus } from "../../src/domain/company-status.ts";

const ALL: CompanyStatus[] = ["draft", "pending_signatures", "active", "inactive", "suspended", "voided"];

describe("company status guard", () => {
  test("a voided company refuses every business operation and allows only reading", () => {
    expect(COMPANY_STATUS_ALLOWS.voided).toEqual(["read"]);
    for (const action of ["operate", "update_profile", "renew"] as const) {
      expect(companyStatusRefusal("voided", action)).toMatchObject({
        refusal: "InvalidState",
        details: { status: "voided" },
      });
    }
    expect(companyStatusRefusal("voided", "read")).toBeNull();
  });

  test("only an active company operates; a suspended one may only be read", () => {
    expect(ALL.filter((s) => companyStatusRefusal(s, "operate") === null)).toEqual(["active"]);
    expect(COMPANY_STATUS_ALLOWS.suspended).toEqual(["read"]);
    expect(ALL.filter((s) => companyStatusRefusal(s, "renew") === null)).toEqual(["active", "inactive"]);
    expect(companyStatusRefusal("suspended", "operate")?.message).toMatch(/suspended by an administrator/);
  });

  test("every status but voided is live", () => {
    expect(ALL.filter(isLiveCompanyStatus)).toEqual(ALL.filter((s) => s !== "voided"));
  });
});
