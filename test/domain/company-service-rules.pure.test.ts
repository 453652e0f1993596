import { describe, expect, test } from "vitest";
import { type CardCompany, companyCard } from "../../src/domain/company-card.ts";
import { mayReadCompanyKey } from "../../src/domain/company-keys.ts";
import { profileChanges } from "../../src/domain/company-profile.ts";

const NOW = new Date("2026-11-27T10:00:00.000Z");

const company: CardCompany = {
  company_id: "FZ-2026-Y000001",
  external_id: "FZX-abc",
  name: "Acme FZC",
  company_type: "single_fzc",
  status: "active",
  description: "Anvils",
  industry: "tools",
  website: "https://acme.example",
  logo_url: null,
  license: null,
  subscription_end_date: new Date("2027-11-27T10:00:00.000Z"),
  public_key: null,
  keypair_version: 0,
  anonymity_enabled: true,
  created_at: new Date("2026-01-01T00:00:00.000Z"),
};

describe("company card", () => {
  test("anonymity masks the identifying fields for outsiders only; ids, status and key stay", () => {
    expect(companyCard(company, false, NOW)).toMatchObject({
      company_id: "FZ-2026-Y000001",
      external_id: "FZX-abc",
      name: null,
      description: null,
      industry: null,
      website: null,
      status: "active",
      masked: true,
    });
    expect(companyCard(company, true, NOW)).toMatchObject({ name: "Acme FZC", masked: false });
    expect(companyCard({ ...company, anonymity_enabled: false }, false, NOW).masked).toBe(false);
  });

  test("licensed means a licence that has not expired", () => {
    const license = {
      license_number: "L",
      license_type: "t",
      issued_at: "2026-01-01T00:00:00.000Z",
      expires_at: "2026-11-27T10:00:00.000Z",
      granted_by: "a",
    };
    expect(companyCard({ ...company, license }, true, NOW).licensed).toBe(false);
    expect(companyCard({ ...company, license: { ...license, expires_at: null } }, true, NOW).licensed).toBe(true);
  });
});

describe("who reads a company's encrypted key", () => {
  test("the owner, a current founder and a signing-authority holder; directors and others do not", () => {
    const none = { owns: false, roles: [] as string[], signingAuthority: false };
    expect(mayReadCompanyKey({ ...none, owns: true })).toBe(true);
    expect(mayReadCompanyKey({ ...none, roles: ["founder"] })).toBe(true);
    expect(mayReadCompanyKey({ ...none, roles: ["director"], signingAuthority: true })).toBe(true);
    expect(mayReadCompanyKey({ ...none, roles: ["director", "shareholder"] })).toBe(false);
    expect(mayReadCompanyKey(none)).toBe(false);
  });
});

describe("company profile fields", () => {
  test("stored trimmed and normalized; null and blank clear", () => {
    expect(
      profileChanges({
        description: " x ",
        email: " A@B.ORG ",
        phone: "+255 (700) 000-001",
        website: " https://a.example/ ",
        industry: "  ",
        logo_url: null,
      }),
    ).toEqual({
      description: "x",
      email: "a@b.org",
      phone: "+255700000001",
      website: "https://a.example/",
      industry: null,
      logo_url: null,
    });
    expect(profileChanges({ email: null, phone: null })).toEqual({ email: null, phone: null });
  });

  test("bad email, phone, URL scheme, address and wallets are InvalidInput naming the field", () => {
    const address = { line1: "1", line2: null, city: "", region: null, postal_code: null, country: "TZ" };
    const cases: [Parameters<typeof profileChanges>[0], string][] = [
      [{ email: "nope" }, "email"],
      [{ phone: "0700" }, "phone"],
      [{ website: "ftp://a.example" }, "website"],
      [{ logo_url: `https://a.example/${"x".repeat(2048)}` }, "logo_url"],
      [{ address }, "address"],
      [{ crypto_wallets: [{ currency: "BTC", network: "", address: "x", label: null }] }, "crypto_wallets"],
    ];
    for (const [input, field] of cases) {
      expect(profileChanges(input), field).toMatchObject({ refusal: "InvalidInput", details: { field } });
    }
  });
});
