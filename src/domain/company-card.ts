import type { ZoneCompanyRow } from "../../generated/entities.ts";
import type { CompanyCardResult } from "../../generated/types.ts";
import { subscriptionStatus } from "./subscriptions.ts";

/**
 * The public display card of a company (companyservice.get_card). Anonymity follows the residents' rule: it masks
 * the identifying fields (name, description, industry, website, logo) from viewers outside the company (here: any
 * signed-in caller holding no current role in it, the owner counting as founder), never from its members or an
 * administrator in a session. The formatted id, external id, type, status, licence flag and public key stay: they
 * are what a counterparty checks signatures and standing with.
 */
export type CardCompany = Pick<
  ZoneCompanyRow,
  | "company_id"
  | "external_id"
  | "name"
  | "company_type"
  | "status"
  | "description"
  | "industry"
  | "website"
  | "logo_url"
  | "license"
  | "subscription_end_date"
  | "public_key"
  | "keypair_version"
  | "anonymity_enabled"
  | "created_at"
>;

/** Whether the card hides the identifying fields from this viewer. */
export const cardMasked = (c: Pick<CardCompany, "anonymity_enabled">, viewerIsInside: boolean): boolean =>
  c.anonymity_enabled && !viewerIsInside;

export function companyCard(c: CardCompany, viewerIsInside: boolean, now: Date): CompanyCardResult {
  const masked = cardMasked(c, viewerIsInside);
  const shown = <T>(value: T): T | null => (masked ? null : value);
  return {
    company_id: c.company_id,
    external_id: c.external_id,
    name: shown(c.name),
    company_type: c.company_type,
    status: c.status,
    description: shown(c.description),
    industry: shown(c.industry),
    website: shown(c.website),
    logo_url: shown(c.logo_url),
    licensed: c.license !== null && (c.license.expires_at === null || new Date(c.license.expires_at) > now),
    subscription_status: subscriptionStatus(c.subscription_end_date, now),
    public_key: c.public_key,
    keypair_version: c.keypair_version,
    masked,
    registered_at: c.created_at.toISOString(),
  };
}
