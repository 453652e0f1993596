import type { EntityManager } from "@mikro-orm/postgresql";
import {
  CompanyRoleEntity,
  type CompanyRoleRow,
  ZoneCompanyEntity,
  type ZoneCompanyRow,
} from "../../generated/entities.ts";

/** The reads access decisions need from ZoneCompany and CompanyRole (the company services own the rest). */

/** The owner pair of a company, by its formatted company id. */
export function companyOwner(
  em: EntityManager,
  companyId: string,
): Promise<Pick<ZoneCompanyRow, "user_id" | "partner_id"> | null> {
  return companyOwnership(em, companyId);
}

/** Roles the residents hold in the company at `now` (valid_from <= now < valid_to). */
export async function currentCompanyRoles(
  em: EntityManager,
  companyId: string,
  residentIds: string[],
  now: Date,
): Promise<CompanyRoleRow["role"][]> {
  return (await currentRoleHolders(em, companyId, residentIds, now)).map((r) => r.role);
}

/** The actor-binding proxy check lives with the Proxy table and its one effectiveness rule. */
export { holdsActiveProxy } from "./proxies.ts";

/** The owner pair and owning resident of a company, by its formatted company id. */
export function companyOwnership(
  em: EntityManager,
  companyId: string,
): Promise<Pick<ZoneCompanyRow, "user_id" | "partner_id" | "owner_resident_id"> | null> {
  return em.findOne(
    ZoneCompanyEntity,
    { company_id: companyId },
    { fields: ["user_id", "partner_id", "owner_resident_id"], disableIdentityMap: true },
  );
}

/** The current roles the residents hold in the company, each with its holder. */
export function currentRoleHolders(
  em: EntityManager,
  companyId: string,
  residentIds: string[],
  now: Date,
): Promise<Pick<CompanyRoleRow, "role" | "subject_id">[]> {
  return em.find(
    CompanyRoleEntity,
    {
      company_id: companyId,
      subject_id: { $in: residentIds },
      valid_from: { $lte: now },
      $or: [{ valid_to: null }, { valid_to: { $gt: now } }],
    },
    { fields: ["role", "subject_id"], disableIdentityMap: true },
  );
}
