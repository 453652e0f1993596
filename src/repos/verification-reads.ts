import type { EntityManager } from "@mikro-orm/postgresql";
import {
  CompanyRoleEntity,
  DigitalResidentEntity,
  KycSessionEntity,
  ZoneCompanyEntity,
} from "../../generated/entities.ts";
import type { IdentityCheck, VerifiedCompany, VerifiedResident } from "../domain/verification-tiers.ts";

/**
 * What public verification reads of residents, KYC sessions, companies and their roles (the services of those
 * tables own them; these are reads only).
 */

const RESIDENT_FIELDS = [
  "resident_id",
  "user_id",
  "partner_id",
  "status",
  "resident_type",
  "external_id",
  "anonymity_enabled",
  "first_name",
  "last_name",
  "created_at",
  "subscription_end_date",
  "public_key",
  "keypair_version",
  "kyc_provider_id",
] as const;

export type ResidentForVerification = VerifiedResident & {
  user_id: string | null;
  partner_id: string | null;
  kyc_provider_id: string;
};

/** A resident by its formatted id or its external_id (the public verify URL carries only that). */
export function findResidentForVerification(
  em: EntityManager,
  idOrExternal: string,
): Promise<ResidentForVerification | null> {
  return em.findOne(
    DigitalResidentEntity,
    { $or: [{ resident_id: idOrExternal }, { external_id: idOrExternal }] },
    { fields: RESIDENT_FIELDS, disableIdentityMap: true },
  );
}

/** The resident's latest completed KYC session with the identity verified, or null. */
export function latestIdentityCheck(em: EntityManager, residentId: string): Promise<IdentityCheck | null> {
  return em.findOne(
    KycSessionEntity,
    { resident_id: residentId, status: "completed", identity_verified: true },
    { fields: ["verification_level", "verified_at"], orderBy: { sid: "desc" }, disableIdentityMap: true },
  );
}

const COMPANY_FIELDS = [
  "company_id",
  "user_id",
  "partner_id",
  "status",
  "company_type",
  "external_id",
  "anonymity_enabled",
  "name",
  "registration_number",
  "created_at",
  "subscription_end_date",
  "public_key",
  "keypair_version",
  "license",
  "voided_at",
] as const;

export type CompanyForVerification = VerifiedCompany & { user_id: string; partner_id: string | null };

/** A company or cooperative by its formatted id or its external_id. */
export function findCompanyForVerification(
  em: EntityManager,
  idOrExternal: string,
): Promise<CompanyForVerification | null> {
  return em.findOne(
    ZoneCompanyEntity,
    { $or: [{ company_id: idOrExternal }, { external_id: idOrExternal }] },
    { fields: COMPANY_FIELDS, disableIdentityMap: true },
  );
}

/** Display names of the company's current directors (a role row's holder_name, else the resident's name). */
export async function currentDirectors(
  em: EntityManager,
  companyId: string,
  now: Date,
): Promise<{ subject_id: string; holder_name: string | null; first_name: string | null; last_name: string | null }[]> {
  const roles = await em.find(
    CompanyRoleEntity,
    {
      company_id: companyId,
      role: "director",
      valid_from: { $lte: now },
      $or: [{ valid_to: null }, { valid_to: { $gt: now } }],
    },
    { fields: ["subject_id", "holder_name"], orderBy: { valid_from: "asc", sid: "asc" }, disableIdentityMap: true },
  );
  const ids = [...new Set(roles.map((r) => r.subject_id))];
  const residents =
    ids.length === 0
      ? []
      : await em.find(
          DigitalResidentEntity,
          { resident_id: { $in: ids } },
          { fields: ["resident_id", "first_name", "last_name"], disableIdentityMap: true },
        );
  const byId = new Map(residents.map((r) => [r.resident_id, r]));
  const seen = new Set<string>();
  return roles.flatMap((r) => {
    if (seen.has(r.subject_id)) return [];
    seen.add(r.subject_id);
    const resident = byId.get(r.subject_id);
    return [
      {
        subject_id: r.subject_id,
        holder_name: r.holder_name,
        first_name: resident?.first_name ?? null,
        last_name: resident?.last_name ?? null,
      },
    ];
  });
}
