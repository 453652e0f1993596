import { describe, expect, test } from "vitest";
import { accessRefusal, companyAccess, ownsPair, residentAccess } from "../../src/domain/entity-access.ts";
import { heldKeys } from "../../src/domain/keypairs.ts";
import {
  linkExpiry,
  linkLabel,
  linkQuotaRefusal,
  linkStatus,
  linkUseRefusal,
} from "../../src/domain/verification-links.ts";
import { directorNames, displayName, effectiveTier } from "../../src/domain/verification-tiers.ts";

/** The pure rules behind keys, links and tiers (src/domain), without a database. */

const personal = (userId: string) => ({ userId, partnerId: null, admin: false });

describe("ownership pairs", () => {
  test("the pair must match: a personal caller never owns a partner's row, partners never share rows", () => {
    expect(ownsPair({ user_id: "u1", partner_id: null }, personal("u1"))).toBe(true);
    expect(ownsPair({ user_id: "u1", partner_id: "p1" }, personal("u1"))).toBe(false);
    expect(ownsPair({ user_id: "u2", partner_id: null }, personal("u1"))).toBe(false);
    const partnerKey = { userId: "wallet-p1", partnerId: "p1", admin: false };
    expect(ownsPair({ user_id: null, partner_id: "p1" }, partnerKey)).toBe(true);
    expect(ownsPair({ user_id: null, partner_id: "p2" }, partnerKey)).toBe(false);
    expect(ownsPair({ user_id: null, partner_id: null }, partnerKey)).toBe(false);
    expect(ownsPair({ user_id: null, partner_id: null }, personal("u1"))).toBe(false);
  });

  test("a resident is managed by its owner only; proxies and administrators only see it", () => {
    const row = { user_id: "u1", partner_id: null };
    expect(residentAccess(row, personal("u1"), false)).toEqual({ owns: true, manages: true, visible: true });
    expect(residentAccess(row, personal("u2"), true)).toEqual({ owns: false, manages: false, visible: true });
    expect(residentAccess(row, { ...personal("u3"), admin: true }, false)).toEqual({
      owns: false,
      manages: false,
      visible: true,
    });
    expect(residentAccess(row, personal("u4"), false).visible).toBe(false);
  });

  test("a company is managed by its owner, founders and directors; other roles only see it", () => {
    const row = { user_id: "u1", partner_id: null };
    expect(companyAccess(row, personal("u2"), ["director"]).manages).toBe(true);
    expect(companyAccess(row, personal("u2"), ["founder"]).manages).toBe(true);
    expect(companyAccess(row, personal("u2"), ["shareholder"])).toEqual({ owns: false, manages: false, visible: true });
    expect(companyAccess(row, personal("u2"), []).visible).toBe(false);
    expect(companyAccess(row, personal("u2"), ["director"]).owns).toBe(false);
  });

  test("refusals: NotFound when not visible, NotOwner when visible but lacking the right", () => {
    expect(accessRefusal({ visible: false, manages: false, owns: false }, "manages", "resident")?.refusal).toBe(
      "NotFound",
    );
    expect(accessRefusal({ visible: true, manages: false, owns: false }, "manages", "resident")?.refusal).toBe(
      "NotOwner",
    );
    expect(accessRefusal({ visible: true, manages: true, owns: false }, "owns", "company")?.refusal).toBe("NotOwner");
    expect(accessRefusal({ visible: true, manages: true, owns: true }, "owns", "company")).toBeNull();
  });
});

describe("tiers", () => {
  test.each([
    [false, false, 3, 1],
    [true, false, 3, 2],
    [true, false, 1, 1],
    [false, true, 3, 3],
    [false, true, 2, 2],
    [true, true, 1, 1],
  ] as const)("signed in %s, link %s, asked %i: tier %i", (signedIn, link, asked, tier) => {
    expect(effectiveTier(signedIn, link, asked)).toBe(tier);
  });

  test.each([0, 4, 1.5, -1, Number.NaN])("requester_tier %s is refused", (asked) => {
    expect(effectiveTier(true, true, asked)).toMatchObject({ refusal: "InvalidInput" });
  });

  test("display names are first name and last initial", () => {
    expect(displayName("Ada", "lovelace")).toBe("Ada L.");
    expect(displayName(" Ada ", "")).toBe("Ada");
    expect(
      directorNames([
        { holder_name: "Ignored", first_name: "Charles", last_name: "Babbage" },
        { holder_name: "Holder Ltd", first_name: null, last_name: null },
        { holder_name: null, first_name: null, last_name: null },
      ]),
    ).toEqual(["Charles B.", "Holder Ltd"]);
  });
});

describe("verification links", () => {
  const now = new Date("2026-11-23T10:00:00.000Z");

  test("expiry is 1 to 8760 whole hours", () => {
    expect(linkExpiry(1, now)).toEqual(new Date("2026-11-23T11:00:00.000Z"));
    expect(linkExpiry(8760, now)).toEqual(new Date("2027-11-23T10:00:00.000Z"));
    for (const hours of [0, 8761, 1.5, -1]) expect(linkExpiry(hours, now)).toMatchObject({ refusal: "InvalidInput" });
  });

  test("labels are trimmed, blank means none, at most 100 characters, no control characters", () => {
    expect(linkLabel(undefined)).toBeNull();
    expect(linkLabel("   ")).toBeNull();
    expect(linkLabel("  bank  ")).toBe("bank");
    expect(linkLabel("é".repeat(100))).toBe("é".repeat(100));
    expect(linkLabel("x".repeat(101))).toMatchObject({ refusal: "InvalidInput" });
    expect(linkLabel("tab\there")).toMatchObject({ refusal: "InvalidInput" });
  });

  test("a user may hold 100 links: the 100th is made, a 101st refused", () => {
    expect(linkQuotaRefusal(99)).toBeNull();
    expect(linkQuotaRefusal(100)).toMatchObject({ refusal: "QuotaExceeded", details: { limit: 100 } });
  });

  test("a stored active link reads expired from its expiry on; each ended status has its refusal", () => {
    const expires_at = new Date(now.getTime() + 1000);
    expect(linkStatus({ status: "active", expires_at }, new Date(now.getTime() + 999))).toBe("active");
    expect(linkStatus({ status: "active", expires_at }, expires_at)).toBe("expired");
    expect(linkStatus({ status: "revoked", expires_at }, expires_at)).toBe("revoked");
    expect(linkUseRefusal("active")).toBeNull();
    expect(linkUseRefusal("expired")?.refusal).toBe("Expired");
    expect(linkUseRefusal("used")?.refusal).toBe("AlreadyUsed");
    expect(linkUseRefusal("revoked")?.refusal).toBe("InvalidState");
  });
});

describe("held keys", () => {
  test("history rows newest first, plus a current key the history lacks", () => {
    const created = new Date("2026-01-01T00:00:00.000Z");
    const v1 = { version: 1, public_key: "k1", valid_from: created, valid_to: new Date("2026-02-01T00:00:00.000Z") };
    expect(heldKeys({ public_key: "k2", keypair_version: 2, created_at: created }, [v1])).toEqual([
      { version: 2, public_key: "k2", valid_from: created, valid_to: null },
      v1,
    ]);
    const v2 = { version: 2, public_key: "k2", valid_from: created, valid_to: null };
    expect(heldKeys({ public_key: "k2", keypair_version: 2, created_at: created }, [v1, v2])).toEqual([v2, v1]);
    expect(heldKeys({ public_key: null, keypair_version: 0, created_at: created }, [])).toEqual([]);
  });
});
