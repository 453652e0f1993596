import type { DigitalResidentRow, ZoneCompanyRow } from "../../generated/entities.ts";
import type { CompanyVerificationResult, IndividualVerificationResult } from "../../generated/types.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { effectiveStatus } from "./resident-status.ts";
import { subscriptionStatus } from "./subscriptions.ts";

/**
 * Tiered public verification (ARCHITECTURE "Server-derived"; subscription and resident status as of now come from subscriptions.ts and
 * resident-status.ts): the server derives the tier from the request, 1 for
 * an anonymous caller, 2 for a signed-in one, 3 with a valid link token for the entity; the requester_tier param
 * can only lower it. What each tier shows, and what anonymity masks (tiers 1 and 2, never tier 3), is decided here:
 * masked, only the verdict answers and every identifying field is null (the formatted and external ids, names, the
 * public key and its version, and the creation time, which the sequential formatted ids follow closely), so nothing
 * links the id a caller holds to another id, a name or a key.
 */

export type Tier = 1 | 2 | 3;

/** The tier applied: the derived one, lowered to requester_tier (1 to 3; anything else is refused). */
export function effectiveTier(
  signedIn: boolean,
  validLink: boolean,
  requested: number,
): Tier | Refusal<"InvalidInput"> {
  if (!Number.isInteger(requested) || requested < 1 || requested > 3) {
    return refuse("InvalidInput", "requester_tier must be 1, 2 or 3", { field: "requester_tier" });
  }
  const derived: Tier = validLink ? 3 : signedIn ? 2 : 1;
  return Math.min(derived, requested) as Tier;
}

/** First name and last initial: "Ada L.". */
export function displayName(first: string, last: string): string {
  const initial = last.trim().charAt(0);
  return initial ? `${first.trim()} ${initial.toUpperCase()}.` : first.trim();
}

/** A resident as verification reads it. */
export type VerifiedResident = Pick<
  DigitalResidentRow,
  | "resident_id"
  | "status"
  | "resident_type"
  | "external_id"
  | "anonymity_enabled"
  | "first_name"
  | "last_name"
  | "created_at"
  | "subscription_end_date"
  | "public_key"
  | "keypair_version"
>;

/** The resident's latest completed KYC session with the identity verified, or null. */
export interface IdentityCheck {
  verification_level: string | null;
  verified_at: Date | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** What a tier shows of a resident; above the tier, or masked by anonymity at tiers 1 and 2, fields are null. */
export function individualView(
  r: VerifiedResident,
  identity: IdentityCheck | null,
  tier: Tier,
  now: Date,
): IndividualVerificationResult {
  const masked = r.anonymity_enabled && tier < 3;
  const t2 = tier >= 2;
  const t3 = tier === 3;
  // Identifying fields: shown from their tier on, unless anonymity masks them.
  const named = !masked;
  const named2 = t2 && !masked;
  const status = effectiveStatus(r, now);
  return {
    resident_id: named ? r.resident_id : null,
    tier,
    anonymity_applied: masked,
    verified: status === "active" && identity !== null,
    status,
    resident_type: r.resident_type,
    external_id: named ? r.external_id : null,
    identity_verified: identity !== null,
    display_name: named2 ? displayName(r.first_name, r.last_name) : null,
    first_name: t3 ? r.first_name : null,
    last_name: t3 ? r.last_name : null,
    member_since: named2 ? r.created_at.toISOString() : null,
    subscription_status: t2 ? subscriptionStatus(r.subscription_end_date, now) : null,
    public_key: named2 ? r.public_key : null,
    keypair_version: named2 ? r.keypair_version : null,
    verification_level: t3 ? (identity?.verification_level ?? null) : null,
    kyc_verified_at: t3 ? iso(identity?.verified_at ?? null) : null,
    checked_at: now.toISOString(),
  };
}

/** A company as verification reads it. */
export type VerifiedCompany = Pick<
  ZoneCompanyRow,
  | "company_id"
  | "status"
  | "company_type"
  | "external_id"
  | "anonymity_enabled"
  | "name"
  | "registration_number"
  | "created_at"
  | "subscription_end_date"
  | "public_key"
  | "keypair_version"
  | "license"
  | "voided_at"
>;

/** What a tier shows of a company; `directors` are display names, shown at tier 3 only. */
export function companyView(c: VerifiedCompany, directors: string[], tier: Tier, now: Date): CompanyVerificationResult {
  const masked = c.anonymity_enabled && tier < 3;
  const t2 = tier >= 2;
  const named = !masked;
  const named2 = t2 && !masked;
  const voided = c.status === "voided" || c.voided_at !== null;
  const subscription = subscriptionStatus(c.subscription_end_date, now);
  return {
    company_id: named ? c.company_id : null,
    tier,
    anonymity_applied: masked,
    verified: c.status === "active" && !voided && subscription !== "suspended",
    status: c.status,
    company_type: c.company_type,
    voided,
    licensed: c.license !== null,
    external_id: named ? c.external_id : null,
    name: named2 ? c.name : null,
    registration_number: named2 ? c.registration_number : null,
    registered_at: named2 ? c.created_at.toISOString() : null,
    subscription_status: t2 ? subscription : null,
    public_key: named2 ? c.public_key : null,
    keypair_version: named2 ? c.keypair_version : null,
    directors: tier === 3 ? directors : null,
    checked_at: now.toISOString(),
  };
}

/** Directors as tier 3 lists them: the resident's display name, else the role's holder name; unknown ones left out. */
export function directorNames(
  directors: { holder_name: string | null; first_name: string | null; last_name: string | null }[],
): string[] {
  return directors.flatMap((d) => {
    if (d.first_name !== null) return [displayName(d.first_name, d.last_name ?? "")];
    return d.holder_name ? [d.holder_name] : [];
  });
}
