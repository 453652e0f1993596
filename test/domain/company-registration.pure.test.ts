import { describe, expect, test } from "vitest";
import type { ShareholderData } from "../../generated/types.ts";
import {
  capTable,
  companyName,
  earlyBirdApplies,
  firstPeriod,
  pricedHolderCount,
  pricingSnapshot,
  registrationPrice,
  registrationRoles,
  resellerCreationRefusal,
  votingModelOf,
} from "../../src/domain/company-registration.ts";
import { isRefusal } from "../../src/domain/refusal.ts";

const NOW = new Date("2026-11-27T10:00:00.000Z");

const holder = (over: Partial<ShareholderData> = {}): ShareholderData => ({
  name: " Ada Lovelace ",
  email: " Ada@Example.org ",
  resident_id: "FZ-2026-RA000001",
  units: 100,
  role: null,
  ...over,
});

describe("company registration rules", () => {
  test("a name is trimmed; blank, over 200 characters or with control characters is refused", () => {
    expect(companyName("  Acme FZC ")).toBe("Acme FZC");
    expect(isRefusal(companyName("   "))).toBe(true);
    expect(isRefusal(companyName("x".repeat(201)))).toBe(true);
    expect(isRefusal(companyName("Acme\nFZC"))).toBe(true);
  });

  test("a cooperative votes one member one vote whatever is asked; others default to standard", () => {
    expect(votingModelOf("coop_standard_fzc", "standard")).toBe("cooperative");
    expect(votingModelOf("startup_fzc", undefined)).toBe("standard");
    expect(votingModelOf("startup_fzc", "cooperative")).toBe("cooperative");
  });

  test("the early bird applies while offered and before its end", () => {
    expect(earlyBirdApplies(NOW, { available: true, ends_at: null })).toBe(true);
    expect(earlyBirdApplies(NOW, { available: false, ends_at: null })).toBe(false);
    expect(earlyBirdApplies(NOW, { available: true, ends_at: "2026-11-27T10:00:00.000Z" })).toBe(false);
    expect(earlyBirdApplies(NOW, { available: true, ends_at: "2026-11-27T10:00:01.000Z" })).toBe(true);
  });

  test("a cap table is trimmed; a cooperative's holders are founding members with 0 units", () => {
    const table = capTable("coop_standard_fzc", [holder()]);
    expect(table).toEqual([
      {
        name: "Ada Lovelace",
        email: "ada@example.org",
        resident_id: "FZ-2026-RA000001",
        units: 0,
        role: "founding_member",
      },
    ]);
    expect(capTable("startup_fzc", [holder()])).toMatchObject([{ role: "shareholder", units: 100 }]);
  });

  test("a shareholder without units, a repeated holder and a table of directors only are refused", () => {
    expect(isRefusal(capTable("startup_fzc", [holder({ units: 0 })]))).toBe(true);
    expect(isRefusal(capTable("startup_fzc", [holder(), holder()]))).toBe(true);
    expect(isRefusal(capTable("startup_fzc", [holder({ role: "director" })]))).toBe(true);
    expect(isRefusal(capTable("startup_fzc", [holder({ name: " " })]))).toBe(true);
  });

  test("directors are not priced as shareholders", () => {
    const table = capTable("startup_fzc", [
      holder(),
      holder({ resident_id: "FZ-2026-RA000002", role: "director", units: 0 }),
    ]);
    if (isRefusal(table)) throw new Error(table.message);
    expect(pricedHolderCount(table)).toBe(1);
  });

  test("the price snapshot is PricingService's figures, early bird by the clock", () => {
    const price = registrationPrice("startup_fzc", 5, "two_years", NOW);
    if (isRefusal(price)) throw new Error(price.message);
    expect(price.total_due).toBe(2259);
    expect(pricingSnapshot(price)).toEqual({
      setup_fee_paid: 675,
      monthly_fee_rate: 90,
      shareholder_fee_rate: 10,
      prepaid_discount_applied: 0.4,
      early_bird_applied: true,
    });
  });

  test("more holders than the type allows is InvalidInput", () => {
    expect(registrationPrice("single_fzc", 2, "monthly", NOW)).toMatchObject({ refusal: "InvalidInput" });
  });

  test("the first period runs the plan's calendar months from now", () => {
    expect(firstPeriod("one_year", NOW).end.toISOString()).toBe("2027-11-27T10:00:00.000Z");
    expect(firstPeriod("monthly", new Date("2027-01-31T00:00:00.000Z")).end.toISOString()).toBe(
      "2027-02-28T00:00:00.000Z",
    );
  });

  test("roles: founder, holders by type, directors; one row per subject and role", () => {
    const table = [holder(), holder({ resident_id: "FZ-2026-RA000002" }), holder({ resident_id: null })];
    const roles = registrationRoles("coop_platinum_fzc", "FZ-2026-RA000001", table, ["FZ-2026-RA000002"]);
    expect(roles).toEqual([
      { subjectId: "FZ-2026-RA000001", role: "founder" },
      { subjectId: "FZ-2026-RA000001", role: "founding_member" },
      { subjectId: "FZ-2026-RA000002", role: "founding_member" },
      { subjectId: "FZ-2026-RA000002", role: "director" },
    ]);
  });

  test("a reseller key creates only with the flag, for its partner, as the partner's wallet user", () => {
    const partner = { sid: "p1", wallet_user_id: "w1", allow_company_creation: true };
    const key = { user_id: "w1", partner_id: "p1", allow_company_creation: true };
    const caller = { userId: "w1", partnerId: "p1" };
    expect(resellerCreationRefusal(key, partner, caller)).toBeNull();
    expect(resellerCreationRefusal({ ...key, allow_company_creation: false }, partner, caller)).toMatchObject({
      refusal: "Forbidden",
    });
    expect(resellerCreationRefusal(key, { ...partner, sid: "p2" }, caller)?.refusal).toBe("Forbidden");
    expect(resellerCreationRefusal({ ...key, user_id: "u9" }, partner, { ...caller, userId: "u9" })?.refusal).toBe(
      "Forbidden",
    );
    expect(resellerCreationRefusal(null, partner, caller)?.refusal).toBe("Forbidden");
  });
});
