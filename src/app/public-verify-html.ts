import { createHash } from "node:crypto";
import type { PublicVerifyKind } from "../domain/public-verify-url.ts";

/**
 * The page GET /verify/<kind>/<external_id>?sig= answers (src/app/public-verify-page.ts): the public verification
 * verdict as verify_individual / verify_company answer it to an anonymous caller, rendered as plain HTML. No script,
 * no links, nothing loaded from elsewhere; every value from the result is escaped.
 */

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
main { max-width: 34rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 8px; }
h1 { font-size: 1.4rem; margin-top: 0; }
.verdict { font-size: 1.25rem; font-weight: 600; }
.verdict.yes { color: #175; }
.verdict.no { color: #a11; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { color: #556; }
dd { margin: 0; overflow-wrap: anywhere; }
.note { color: #556; font-size: 0.9rem; }
`;

const sha256 = (text: string): string => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/** Only the page's own inline style: no script, no images, no requests, no forms, no framing. */
const CSP = [
  "default-src 'none'",
  `style-src ${sha256(STYLE)}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The headers of every answer of the route, HTML or JSON: the verdict is live, and the URL carries a signature. */
export const PUBLIC_VERIFY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CSP,
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  vary: "Accept",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Labels of the result fields the page lists; fields shown elsewhere on the page (or never) are absent. */
const LABELS: Record<string, string> = {
  status: "Status",
  resident_type: "Resident type",
  company_type: "Company type",
  identity_verified: "Identity verified",
  voided: "Voided",
  licensed: "Licensed",
  resident_id: "Resident id",
  company_id: "Company id",
  external_id: "Public id",
  display_name: "Name",
  first_name: "First name",
  last_name: "Last name",
  name: "Name",
  registration_number: "Registration number",
  member_since: "Member since",
  registered_at: "Registered",
  subscription_status: "Subscription",
  public_key: "Public key",
  keypair_version: "Key version",
  verification_level: "Identity check level",
  kyc_verified_at: "Identity checked",
  directors: "Directors",
};

function shown(value: unknown): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.map(String).join(", ");
  return String(value);
}

const TITLES: Record<PublicVerifyKind, string> = {
  individual: "Resident verification",
  company: "Company verification",
};

const MEANING: Record<PublicVerifyKind, string> = {
  individual: "An active resident whose identity is verified.",
  company: "An active company, not voided, whose subscription has not lapsed.",
};

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} - freezone registry</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** The verdict page of one result (an IndividualVerificationResult or CompanyVerificationResult, as answered). */
export function verdictPage(kind: PublicVerifyKind, result: Record<string, unknown>): string {
  const verified = result["verified"] === true;
  const rows = Object.entries(result)
    .filter(([field, value]) => Object.hasOwn(LABELS, field) && value !== null)
    .map(([field, value]) => `<dt>${escapeHtml(LABELS[field] ?? field)}</dt><dd>${escapeHtml(shown(value))}</dd>`);
  const masked =
    result["anonymity_applied"] === true
      ? `<p class="note">The holder keeps its identity private: only the verdict is shown.</p>\n`
      : "";
  const body = `<p class="verdict ${verified ? "yes" : "no"}">${verified ? "Verified" : "Not verified"}</p>
<p class="note">${escapeHtml(MEANING[kind])}</p>
${masked}<dl>
${rows.join("\n")}
</dl>
<p class="note">Checked at ${escapeHtml(shown(result["checked_at"]))} (public view, tier ${escapeHtml(shown(result["tier"]))}).</p>`;
  return document(TITLES[kind], body);
}

/** A lookup the server refused for now (rate limit) or could not answer: a sentence, no detail. */
export function messagePage(title: string, message: string): string {
  return document(title, `<p>${escapeHtml(message)}</p>`);
}
