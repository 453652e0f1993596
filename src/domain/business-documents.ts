import { BlockList, isIP } from "node:net";
import type { BusinessDocumentType } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Business documents (seed 000 "Documents, contracts, messages"): the input rules of uploads, which types the zone
 * alone issues, and the audience classification of each type (docs/decisions.md "Business documents").
 */

/** Every member tier: a shareholder-tier document is read by every member role (the tiers ordered below it too). */
export const SHAREHOLDER_TIER: readonly string[] = [
  "director",
  "founder",
  "shareholder",
  "founding_member",
  "platinum_member",
];

/** The audience tiers of each document type: the shareholder tier for all of them (the registry record is theirs). */
export const CLASSIFICATION_BY_TYPE: Record<BusinessDocumentType, readonly string[]> = {
  certificate_of_incorporation: SHAREHOLDER_TIER,
  business_license: SHAREHOLDER_TIER,
  memorandum: SHAREHOLDER_TIER,
  articles: SHAREHOLDER_TIER,
  resolution: SHAREHOLDER_TIER,
  other: SHAREHOLDER_TIER,
};

/** Audience rule names, for audit (DocumentAudience.audience_computation). */
export const AUDIENCE_RULE = {
  uploaded: "business_document_uploaded_shareholder_tier",
  official: "business_document_official_shareholder_tier",
  deleted: "business_document_deleted",
} as const;

/** Types only the zone issues (generate_official_document); an upload of them is refused. */
export const ZONE_ISSUED_TYPES: readonly BusinessDocumentType[] = ["certificate_of_incorporation", "business_license"];

/** Types generate_official_document renders. */
export const OFFICIAL_TYPES: readonly BusinessDocumentType[] = [
  "certificate_of_incorporation",
  "business_license",
  "memorandum",
  "articles",
];

export const MAX_NAME = 200;
export const MAX_DESCRIPTION = 2_000;
export const MAX_URL = 2_048;

/**
 * Loopback, private, link-local, unique-local, shared and unspecified ranges (IPv6 `::/96` holds `::`, `::1` and the
 * IPv4-compatible form; `64:ff9b::/96` is NAT64): never a document host.
 */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["255.255.255.255", 32],
] as const) {
  INTERNAL.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96],
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
] as const) {
  INTERNAL.addSubnet(net, prefix, "ipv6");
}

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
const IPV4_MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** An IPv6 literal's embedded IPv4 address (`::ffff:a.b.c.d`, which URL parsing writes as `::ffff:xxxx:xxxx`). */
function mappedIpv4(ip: string): string | null {
  const dotted = IPV4_MAPPED.exec(ip);
  if (dotted?.[1]) return dotted[1];
  const hex = IPV4_MAPPED_HEX.exec(ip);
  if (!hex?.[1] || !hex[2]) return null;
  const hi = Number.parseInt(hex[1], 16);
  const lo = Number.parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether a host names this machine or an internal network: localhost, or an IP literal in an internal range. */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const version = isIP(bare);
  if (version === 4) return INTERNAL.check(bare, "ipv4");
  if (version === 6) {
    const v4 = mappedIpv4(bare);
    return v4 !== null ? INTERNAL.check(v4, "ipv4") : INTERNAL.check(bare, "ipv6");
  }
  return false;
}

/**
 * A link a user gives (a document's file, an expense's receipt): an absolute https URL of at most MAX_URL characters,
 * without credentials, whose host is not internal; normalised. The server never fetches it; the check keeps
 * `javascript:` and links to internal hosts out of records others open.
 */
export function linkUrlOf(raw: string, field: string): string | Refusal<"InvalidInput"> {
  const text = raw.trim();
  const bad = (why: string) => refuse("InvalidInput", `${field} ${why}`, { field });
  if (text.length === 0 || text.length > MAX_URL) return bad(`must be 1 to ${MAX_URL} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return bad("must be an absolute URL");
  }
  if (url.protocol !== "https:") return bad("must be an https URL");
  if (url.username !== "" || url.password !== "") return bad("must not carry credentials");
  if (url.hostname === "" || isInternalHost(url.hostname)) {
    return bad("must not point to localhost or a private, loopback or link-local address");
  }
  return url.toString();
}

/** The file link of an upload (`linkUrlOf`). */
export function fileUrlOf(raw: string): string | Refusal<"InvalidInput"> {
  return linkUrlOf(raw, "file_url");
}

export interface UploadInput {
  document_type: BusinessDocumentType;
  name: string;
  description?: string | undefined;
  file_url: string;
}

export interface UploadFields {
  name: string;
  description: string | null;
  file_url: string;
}

/** The stored fields of an upload, or why it is refused (a zone-issued type, a blank or long name, a bad link). */
export function uploadFields(input: UploadInput): UploadFields | Refusal<"InvalidInput"> {
  if (ZONE_ISSUED_TYPES.includes(input.document_type)) {
    return refuse("InvalidInput", `${input.document_type} is issued by the zone (generate_official_document)`, {
      field: "document_type",
    });
  }
  const name = input.name.trim();
  if (name.length === 0 || name.length > MAX_NAME) {
    return refuse("InvalidInput", `name must be 1 to ${MAX_NAME} characters`, { field: "name" });
  }
  const description = input.description?.trim() ?? "";
  if (description.length > MAX_DESCRIPTION) {
    return refuse("InvalidInput", `description must be at most ${MAX_DESCRIPTION} characters`, {
      field: "description",
    });
  }
  const fileUrl = fileUrlOf(input.file_url);
  if (typeof fileUrl !== "string") return fileUrl;
  return { name, description: description.length > 0 ? description : null, file_url: fileUrl };
}
