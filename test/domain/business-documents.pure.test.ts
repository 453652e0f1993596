import { describe, expect, test } from "vitest";
import type { CompanyLicense } from "../../generated/types.ts";
import {
  CLASSIFICATION_BY_TYPE,
  fileUrlOf,
  isInternalHost,
  SHAREHOLDER_TIER,
  uploadFields,
} from "../../src/domain/business-documents.ts";
import { licenceInForce, type RegistryRecord, renderOfficialDocument } from "../../src/domain/official-documents.ts";

describe("fileUrlOf", () => {
  test.each([
    ["https://files.example.org/a.pdf", "https://files.example.org/a.pdf"],
    ["  https://files.example.org/a b.pdf ", "https://files.example.org/a%20b.pdf"],
    ["https://8.8.8.8/doc.pdf", "https://8.8.8.8/doc.pdf"],
    ["https://[2001:db8::1]/doc.pdf", "https://[2001:db8::1]/doc.pdf"],
    ["https://localhost.example.org/x", "https://localhost.example.org/x"],
  ])("accepts %s", (raw, normalised) => {
    expect(fileUrlOf(raw)).toBe(normalised);
  });

  test.each([
    "",
    "   ",
    "files.example.org/a.pdf",
    "/relative/a.pdf",
    "http://files.example.org/a.pdf",
    "ftp://files.example.org/a.pdf",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "https://user:secret@files.example.org/a.pdf",
    "https://localhost/a.pdf",
    "https://LOCALHOST./a.pdf",
    "https://api.localhost/a.pdf",
    "https://127.0.0.1/a.pdf",
    "https://127.1/a.pdf",
    "https://2130706433/a.pdf",
    "https://0x7f000001/a.pdf",
    "https://0.0.0.0/a.pdf",
    "https://10.1.2.3/a.pdf",
    "https://172.16.0.1/a.pdf",
    "https://172.31.255.255/a.pdf",
    "https://192.168.1.1/a.pdf",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/a.pdf",
    "https://[::1]/a.pdf",
    "https://[::]/a.pdf",
    "https://[fc00::1]/a.pdf",
    "https://[fd12:3456::1]/a.pdf",
    "https://[fe80::1]/a.pdf",
    "https://[::ffff:127.0.0.1]/a.pdf",
    "https://[::ffff:10.0.0.1]/a.pdf",
    `https://example.org/${"a".repeat(2048)}`,
  ])("refuses %s (InvalidInput)", (raw) => {
    expect(fileUrlOf(raw)).toMatchObject({ refusal: "InvalidInput", details: { field: "file_url" } });
  });

  test("the private ranges end where they end: 172.32.0.1 and 11.0.0.1 are public", () => {
    expect(isInternalHost("172.32.0.1")).toBe(false);
    expect(isInternalHost("11.0.0.1")).toBe(false);
    expect(isInternalHost("172.15.255.255")).toBe(false);
    expect(isInternalHost("[2001:db8::1]")).toBe(false);
  });
});

describe("uploadFields", () => {
  const ok = { document_type: "other" as const, name: " Board minutes ", file_url: "https://files.example.org/m.pdf" };

  test("trims the name, blanks the description to null, normalises the link", () => {
    expect(uploadFields({ ...ok, description: "  " })).toEqual({
      name: "Board minutes",
      description: null,
      file_url: "https://files.example.org/m.pdf",
    });
    expect(uploadFields({ ...ok, description: " Q1 " })).toMatchObject({ description: "Q1" });
  });

  test("refuses a blank or long name, a long description, a zone-issued type", () => {
    expect(uploadFields({ ...ok, name: "  " })).toMatchObject({ refusal: "InvalidInput", details: { field: "name" } });
    expect(uploadFields({ ...ok, name: "n".repeat(201) })).toMatchObject({ refusal: "InvalidInput" });
    expect(uploadFields({ ...ok, name: "n".repeat(200) })).toMatchObject({ name: "n".repeat(200) });
    expect(uploadFields({ ...ok, description: "d".repeat(2001) })).toMatchObject({
      refusal: "InvalidInput",
      details: { field: "description" },
    });
    for (const type of ["certificate_of_incorporation", "business_license"] as const) {
      expect(uploadFields({ ...ok, document_type: type })).toMatchObject({
        refusal: "InvalidInput",
        details: { field: "document_type" },
      });
    }
    for (const type of ["memorandum", "articles", "resolution"] as const) {
      expect(uploadFields({ ...ok, document_type: type })).toMatchObject({ name: "Board minutes" });
    }
  });

  test("every type is classified for the shareholder tier (every member role)", () => {
    for (const tiers of Object.values(CLASSIFICATION_BY_TYPE)) expect(tiers).toEqual(SHAREHOLDER_TIER);
    expect([...SHAREHOLDER_TIER].sort()).toEqual(
      ["director", "founder", "founding_member", "platinum_member", "shareholder"].sort(),
    );
  });
});

describe("renderOfficialDocument", () => {
  const now = new Date("2026-11-23T10:00:00.000Z");
  const license: CompanyLicense = {
    license_number: "LIC-7",
    license_type: "trading",
    issued_at: "2026-02-01T00:00:00.000Z",
    expires_at: "2027-02-01T00:00:00.000Z",
    granted_by: "admin@example.org",
  };
  const company: RegistryRecord = {
    company_id: "FZ-2026-Y000042",
    name: "Acme FZC",
    company_type: "startup_fzc",
    registration_number: "REG-42",
    registered_at: new Date("2026-01-15T08:00:00.000Z"),
    address: { line1: "1 Harbour Road", line2: null, city: "Zanzibar", region: null, postal_code: null, country: "TZ" },
    license: null,
  };
  const officers = [
    { role: "founder" as const, display: "Ada Lovelace" },
    { role: "director" as const, display: "FZX-ABCDEFGHJK" },
  ];

  test("a certificate of incorporation states the registry record and the officers", () => {
    const doc = renderOfficialDocument("certificate_of_incorporation", company, officers, now);
    if ("refusal" in doc) throw new Error(doc.message);
    expect(doc.name).toBe("Certificate of Incorporation: Acme FZC");
    expect(doc.expiry_date).toBeNull();
    for (const text of [
      "# Certificate of Incorporation",
      "FZ-2026-Y000042",
      "Acme FZC",
      "Startup Free Zone Company",
      "REG-42",
      "Registered on: 2026-01-15",
      "1 Harbour Road, Zanzibar, TZ",
      "## Founders\n- Ada Lovelace",
      "## Directors\n- FZX-ABCDEFGHJK",
      "2026-11-23T10:00:00.000Z",
    ]) {
      expect(doc.content).toContain(text);
    }
  });

  test("memorandum and articles are rendered; missing officers and address say so", () => {
    for (const type of ["memorandum", "articles"] as const) {
      const doc = renderOfficialDocument(type, { ...company, address: null }, [], now);
      if ("refusal" in doc) throw new Error(doc.message);
      expect(doc.content).toContain(type === "memorandum" ? "Memorandum of Association" : "Articles of Association");
      expect(doc.content).toContain("Registered address: not recorded");
      expect(doc.content).toContain("## Directors\n- none recorded");
    }
  });

  test("a business licence needs a licence in force and states it, expiring with it", () => {
    expect(renderOfficialDocument("business_license", company, officers, now)).toMatchObject({
      refusal: "InvalidState",
    });
    const expired = { ...license, expires_at: "2026-11-23T10:00:00.000Z" };
    expect(renderOfficialDocument("business_license", { ...company, license: expired }, officers, now)).toMatchObject({
      refusal: "InvalidState",
    });
    const doc = renderOfficialDocument("business_license", { ...company, license }, officers, now);
    if ("refusal" in doc) throw new Error(doc.message);
    expect(doc.content).toContain("Licence number: LIC-7");
    expect(doc.content).toContain("Licence type: trading");
    expect(doc.expiry_date?.toISOString()).toBe("2027-02-01T00:00:00.000Z");
    expect(licenceInForce({ ...license, expires_at: null }, now)).toBe(true);
  });

  test("resolution and other are not issued by the zone (InvalidInput)", () => {
    for (const type of ["resolution", "other"] as const) {
      expect(renderOfficialDocument(type, company, officers, now)).toMatchObject({ refusal: "InvalidInput" });
    }
  });
});
