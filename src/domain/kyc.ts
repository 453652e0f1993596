import { Point } from "@noble/ed25519";
import type { KycProviderPersonalData, KycProviderWebhookData, KycStatus } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";

/** The verified personal fields an identity provider may send (KycPersonalData). */
export const KYC_PERSONAL_FIELDS = [
  "dob",
  "nationality",
  "document_number",
  "document_type",
  "document_expiry",
] as const;
export type KycPersonalField = (typeof KYC_PERSONAL_FIELDS)[number];

/**
 * KYC rules (issue 14; docs/decisions.md "KYC sessions"): who owns a resident, what start_verification accepts,
 * how a provider verdict and an administrator's review move a session, when a session has expired, and which
 * verified personal fields are kept.
 */

/** A session the provider has not decided yet: it expires at `expires_at`. */
export const OPEN_KYC_STATUSES: readonly KycStatus[] = ["pending", "in_progress"];

export function isOpen(status: KycStatus): boolean {
  return OPEN_KYC_STATUSES.includes(status);
}

/** Lazy expiry: an open session is expired from the instant `expires_at` on (the deadline itself included). */
export function kycExpired(session: { status: KycStatus; expires_at: Date }, now: Date): boolean {
  return isOpen(session.status) && session.expires_at.getTime() <= now.getTime();
}

/** What reads answer: an open session past its deadline reads expired before anything stored the move. */
export function visibleKycStatus(session: { status: KycStatus; expires_at: Date }, now: Date): KycStatus {
  return kycExpired(session, now) ? "expired" : session.status;
}

/** An Ed25519 public key as API.md has it: 64 lowercase hex, strictly decoded (RFC 8032), not of small order. */
export function publicKeyRefusal(hex: string, storedKey: string | null): Refusal<"InvalidInput"> | null {
  const bad = (message: string) => refuse("InvalidInput", message, { field: "public_key" });
  if (!/^[0-9a-f]{64}$/.test(hex)) return bad("public_key must be 64 lowercase hex characters");
  let point: Point;
  try {
    point = Point.fromHex(hex, false);
  } catch {
    return bad("public_key is not an Ed25519 public key");
  }
  if (point.isSmallOrder()) return bad("public_key is a small-order point");
  if (storedKey !== null && storedKey !== hex) return bad("public_key differs from the resident's stored key");
  return null;
}

const MAX_URL = 2048;

/** Where the provider sends the user back: an https URL without credentials. */
export function callbackUrlRefusal(raw: string | undefined): Refusal<"InvalidInput"> | null {
  if (raw === undefined) return null;
  const bad = refuse("InvalidInput", "callback_url must be an https URL without credentials", {
    field: "callback_url",
  });
  if (raw.length > MAX_URL) return bad;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return bad;
  }
  return url.protocol !== "https:" || url.hostname === "" || url.username !== "" || url.password !== "" ? bad : null;
}

/** Whether a resident may start a verification: pending, not verified, nothing held for review. */
export function startRefusal(facts: {
  residentStatus: string;
  verified: boolean;
  heldForReview: boolean;
}): Refusal<"InvalidState"> | null {
  if (facts.verified) return refuse("InvalidState", "the resident's identity is already verified");
  if (facts.heldForReview) return refuse("InvalidState", "a verification of this resident is held for review");
  if (facts.residentStatus !== "pending") {
    return refuse(
      "InvalidState",
      `only a pending resident starts a verification (this one is ${facts.residentStatus})`,
      {
        status: facts.residentStatus,
      },
    );
  }
  return null;
}

export type KycVerdict = KycProviderWebhookData["verdict"];

/**
 * What a provider verdict does to a session; null means nothing changes. Only an open session moves; past its
 * deadline any verdict expires it. approved completes, denied fails, suspected waits for an administrator when the
 * instance requires manual sign-off and fails otherwise, pending marks it in progress, expired expires it.
 */
export function verdictTransition(facts: {
  status: KycStatus;
  expired: boolean;
  verdict: KycVerdict;
  manualReview: boolean;
}): KycStatus | null {
  if (!isOpen(facts.status)) return null;
  if (facts.expired) return "expired";
  switch (facts.verdict) {
    case "approved":
      return "completed";
    case "denied":
      return "failed";
    case "suspected":
      return facts.manualReview ? "needs_review" : "failed";
    case "pending":
      return facts.status === "pending" ? "in_progress" : null;
    case "expired":
      return "expired";
  }
}

/** The moves whose verified personal fields are kept: a completed session, or one an administrator will review. */
export function capturesPersonalData(next: KycStatus): boolean {
  return next === "completed" || next === "needs_review";
}

/** An administrator decides only sessions held for review. */
export function reviewRefusal(status: KycStatus): Refusal<"InvalidState"> | null {
  return status === "needs_review"
    ? null
    : refuse("InvalidState", `the session is ${status}, not needs_review`, { status });
}

/** A reason as stored: trimmed, not blank. */
export function reasonText(raw: string): string | Refusal<"InvalidInput"> {
  const reason = raw.trim();
  return reason.length > 0 ? reason : refuse("InvalidInput", "reason must not be blank", { field: "reason" });
}

export type PersonalFields = Partial<Record<KycPersonalField, string>>;

const MAX_FIELD = 200;
const DATE_FIELDS: readonly KycPersonalField[] = ["dob", "document_expiry"];

function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** Personal fields the provider sent, checked: dates YYYY-MM-DD, nationality 2 or 3 capital letters, short values. */
export function personalDataRefusal(data: KycProviderPersonalData | null | undefined): Refusal<"InvalidInput"> | null {
  if (!data) return null;
  for (const [field, value] of Object.entries(data) as [KycPersonalField, string | null | undefined][]) {
    if (value === null || value === undefined) continue;
    const bad = (why: string) => refuse("InvalidInput", `personal_data.${field} ${why}`, { field });
    if (value.length > MAX_FIELD) return bad(`is longer than ${MAX_FIELD} characters`);
    if (DATE_FIELDS.includes(field) && !isCalendarDate(value)) return bad("must be a date YYYY-MM-DD");
    if (field === "nationality" && !/^[A-Z]{2,3}$/.test(value)) return bad("must be 2 or 3 capital letters");
  }
  return null;
}

/**
 * The fields to keep: none unless the feature is on; then each field whose toggle is on and that the provider sent
 * (absent or empty fields stay absent). Null when nothing is left to keep.
 */
export function fieldsToCapture(
  data: KycProviderPersonalData | null | undefined,
  settings: { enabled: boolean; fields: readonly KycPersonalField[] },
): PersonalFields | null {
  if (!settings.enabled || !data) return null;
  const kept: PersonalFields = {};
  for (const field of settings.fields) {
    const value = data[field];
    if (typeof value === "string" && value !== "") kept[field] = value;
  }
  return Object.keys(kept).length > 0 ? kept : null;
}
