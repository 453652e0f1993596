import type { EntityManager } from "@mikro-orm/postgresql";
import { ZoneCompanyEntity, type ZoneCompanyRow } from "../../generated/entities.ts";
import type { CompanyLicense } from "../../generated/types.ts";
import { sqlRows } from "../db/sql.ts";
import { type CompanyAction, companyStatusRefusal } from "../domain/company-status.ts";
import type { Refusal } from "../domain/refusal.ts";

/** ZoneCompany reads and the administrator writes (void, licence) as conditional updates. */

export type CompanyHead = Pick<ZoneCompanyRow, "company_id" | "name" | "status" | "license">;

/** The company's id, name, status and licence, read fresh (not from the identity map). */
export function findCompanyHead(em: EntityManager, companyId: string): Promise<CompanyHead | null> {
  return em.findOne(
    ZoneCompanyEntity,
    { company_id: companyId },
    { fields: ["company_id", "name", "status", "license"], disableIdentityMap: true },
  );
}

export interface VoidFields {
  reason: string;
  at: Date;
  by: string;
}

/** Voids the company unless it already is, in one conditional update; false when it was voided meanwhile. */
export async function voidCompanyRow(em: EntityManager, companyId: string, v: VoidFields): Promise<boolean> {
  const changed = await em.nativeUpdate(
    ZoneCompanyEntity,
    { company_id: companyId, status: { $ne: "voided" } },
    { status: "voided", void_reason: v.reason, voided_at: v.at, voided_by: v.by, updated_at: v.at },
  );
  return changed === 1;
}

/**
 * Sets the licence of a company that is not voided, or clears it (`license` null) when it has one, in one
 * conditional update. False when the guard no longer holds (the row moved meanwhile).
 */
export async function setCompanyLicenseRow(
  em: EntityManager,
  companyId: string,
  license: CompanyLicense | null,
  at: Date,
): Promise<boolean> {
  const where =
    license === null
      ? { company_id: companyId, license: { $ne: null } }
      : { company_id: companyId, status: { $ne: "voided" as const } };
  const changed = await em.nativeUpdate(ZoneCompanyEntity, where, { license, updated_at: at });
  return changed === 1;
}

/**
 * The guard every company-touching business operation calls before it writes: NotFound is the caller's (null
 * company), otherwise null when the company's status allows `action`, else the InvalidState refusal.
 */
export async function companyOperableRefusal(
  em: EntityManager,
  companyId: string,
  action: CompanyAction = "operate",
): Promise<Refusal<"InvalidState"> | "missing" | null> {
  const row = await findCompanyHead(em, companyId);
  if (!row) return "missing";
  return companyStatusRefusal(row.status, action);
}

/**
 * Whether a company holding its name already bears `name` (case-insensitive): registered and not voided, i.e.
 * active, inactive or suspended, the rows of the unique index zone_company_live_name_unique.
 */
export async function liveNameTaken(em: EntityManager, name: string): Promise<boolean> {
  const rows = await sqlRows<{ company_id: string }>(
    em,
    `select company_id from "zone_company" where lower(name) = lower(?) and status in ('active', 'inactive', 'suspended') limit 1`,
    [name],
  );
  return rows.length > 0;
}

/** The whole company row by its formatted id, read fresh, or null. */
export function findCompany(em: EntityManager, companyId: string): Promise<ZoneCompanyRow | null> {
  return em.findOne(ZoneCompanyEntity, { company_id: companyId }, { disableIdentityMap: true });
}
