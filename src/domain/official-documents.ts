import type { Address, BusinessDocumentType, CompanyLicense, CompanyType } from "../../generated/types.ts";
import { OFFICIAL_TYPES } from "./business-documents.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { markdownText as md, singleLine } from "./text-render.ts";

/**
 * Official documents the zone issues from the registry record (generate_official_document): markdown rendered from
 * the company, its founders and directors at the issuing instant, and its licence. The template is ours; every value
 * from the record goes through `markdownText` (src/domain/text-render.ts), since an official document is append-only
 * and what is written is what the zone certified. Pure: the service loads the record and the roles.
 */

export interface RegistryRecord {
  company_id: string;
  name: string;
  company_type: CompanyType;
  registration_number: string;
  /** When the company was registered (activation, else the record's creation). */
  registered_at: Date;
  address: Address | null;
  license: CompanyLicense | null;
}

/** A founder or director at the instant, as the document names them (an anonymous holder by its opaque id). */
export interface Officer {
  role: "founder" | "director";
  display: string;
}

export interface OfficialDocument {
  document_type: BusinessDocumentType;
  name: string;
  content: string;
  expiry_date: Date | null;
}

const TITLES: Record<string, string> = {
  certificate_of_incorporation: "Certificate of Incorporation",
  business_license: "Business Licence",
  memorandum: "Memorandum of Association",
  articles: "Articles of Association",
};

const COMPANY_TYPES: Record<CompanyType, string> = {
  single_fzc: "Single-shareholder Free Zone Company",
  startup_fzc: "Startup Free Zone Company",
  growth_fzc: "Growth Free Zone Company",
  global_fzc: "Global Free Zone Company",
  coop_standard_fzc: "Standard Free Zone Cooperative",
  coop_platinum_fzc: "Platinum Free Zone Cooperative",
};

const day = (d: Date) => d.toISOString().slice(0, 10);

function addressLine(a: Address | null): string {
  if (!a) return "not recorded";
  const parts = [a.line1, a.line2, a.city, a.region, a.postal_code, a.country].filter(
    (p): p is string => typeof p === "string" && p.trim().length > 0,
  );
  return parts.length > 0 ? parts.map(md).join(", ") : "not recorded";
}

function officerLines(officers: readonly Officer[], role: Officer["role"]): string[] {
  const names = officers.filter((o) => o.role === role).map((o) => `- ${md(o.display)}`);
  return names.length > 0 ? names : ["- none recorded"];
}

/** Whether the licence is in force at `now` (granted, and its expiry, if any, still ahead). */
export function licenceInForce(license: CompanyLicense | null, now: Date): license is CompanyLicense {
  return license !== null && (license.expires_at === null || Date.parse(license.expires_at) > now.getTime());
}

function recordSection(c: RegistryRecord, officers: readonly Officer[]): string[] {
  return [
    `- Company id: ${md(c.company_id)}`,
    `- Name: ${md(c.name)}`,
    `- Form: ${COMPANY_TYPES[c.company_type]}`,
    `- Registration number: ${c.registration_number ? md(c.registration_number) : "not recorded"}`,
    `- Registered on: ${day(c.registered_at)}`,
    `- Registered address: ${addressLine(c.address)}`,
    "",
    "## Founders",
    ...officerLines(officers, "founder"),
    "",
    "## Directors",
    ...officerLines(officers, "director"),
  ];
}

function body(type: BusinessDocumentType, c: RegistryRecord, officers: readonly Officer[], now: Date): string[] {
  const record = recordSection(c, officers);
  if (type === "certificate_of_incorporation") {
    return [
      `This certifies that ${md(c.name)} is incorporated in the free zone registry under company id ${md(c.company_id)}.`,
      "",
      ...record,
    ];
  }
  if (type === "business_license") {
    const l = c.license as CompanyLicense;
    return [
      `${md(c.name)} (${md(c.company_id)}) holds the following licence of the free zone.`,
      "",
      `- Licence number: ${md(l.license_number)}`,
      `- Licence type: ${md(l.license_type)}`,
      `- Issued on: ${day(new Date(l.issued_at))}`,
      `- Expires on: ${l.expires_at === null ? "no expiry" : day(new Date(l.expires_at))}`,
      "",
      ...record,
    ];
  }
  const kind = type === "memorandum" ? "memorandum" : "articles";
  return [
    `The ${kind} of association of ${md(c.name)} as recorded in the free zone registry on ${day(now)}.`,
    "",
    ...record,
  ];
}

/**
 * The official document of `type` for the company at `now`, or why it is refused: a type the zone does not issue
 * (InvalidInput), a business licence of a company without a licence in force (InvalidState).
 */
export function renderOfficialDocument(
  type: BusinessDocumentType,
  company: RegistryRecord,
  officers: readonly Officer[],
  now: Date,
): OfficialDocument | Refusal<"InvalidInput" | "InvalidState"> {
  if (!OFFICIAL_TYPES.includes(type)) {
    return refuse("InvalidInput", `the zone issues ${OFFICIAL_TYPES.join(", ")}, not ${type}`, {
      field: "document_type",
    });
  }
  if (type === "business_license" && !licenceInForce(company.license, now)) {
    return refuse("InvalidState", "the company holds no licence in force", { license: company.license !== null });
  }
  const title = TITLES[type] ?? type;
  const content = [
    `# ${title}`,
    "",
    ...body(type, company, officers, now),
    "",
    `Issued by the free zone registry on ${now.toISOString()}.`,
    "",
  ].join("\n");
  const expiry =
    type === "business_license" && company.license?.expires_at ? new Date(company.license.expires_at) : null;
  return { document_type: type, name: `${title}: ${singleLine(company.name)}`, content, expiry_date: expiry };
}
