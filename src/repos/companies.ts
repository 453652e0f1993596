import type { EntityManager } from "@mikro-orm/postgresql";
import { ZoneCompanyEntity, type ZoneCompanyRow } from "../../generated/entities.ts";
import type { CompanyLicense, CompanyStatus } from "../../generated/types.ts";
import { dateOf, sqlRows } from "../db/sql.ts";
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

/**
 * The lapse: every `active` company whose subscription_end_date has passed becomes `inactive`, in one conditional
 * statement (each row moves only while it is still active and lapsed, so a concurrent sweep or renewal is never
 * undone); the ids moved. A company without an end date never lapses.
 */
export async function lapseCompanies(em: EntityManager, now: Date): Promise<string[]> {
  const rows = await sqlRows<{ company_id: string }>(
    em,
    `update "zone_company" set status = 'inactive', updated_at = ?
     where status = 'active' and subscription_end_date is not null and subscription_end_date <= ?
     returning company_id`,
    [now, now],
  );
  return rows.map((r) => r.company_id);
}

/**
 * The guard as one call for a write: throws `toError(refusal)` when the company's status does not allow `action`
 * (InvalidState with `details.status`); an unknown company passes (the caller answers its own NotFound). Call it
 * after the caller's role check, so a stranger learns nothing about the status, and before anything is written.
 */
export async function requireCompanyOperable(
  em: EntityManager,
  companyId: string,
  toError: (refusal: Refusal<"InvalidState">) => Error,
  action: CompanyAction = "operate",
): Promise<void> {
  const refusal = await companyOperableRefusal(em, companyId, action);
  if (refusal !== null && refusal !== "missing") throw toError(refusal);
}

export type CompanyStatusRow = Pick<ZoneCompanyRow, "company_id" | "name" | "status" | "subscription_end_date">;

/** The company's status and end date, row-locked until the transaction ends; null when it does not exist. */
export async function lockCompanyStatus(em: EntityManager, companyId: string): Promise<CompanyStatusRow | null> {
  const rows = await sqlRows<CompanyStatusRow>(
    em,
    `select company_id, name, status, subscription_end_date from "zone_company" where company_id = ? for update`,
    [companyId],
  );
  const row = rows[0];
  if (!row) return null;
  return { ...row, subscription_end_date: row.subscription_end_date && dateOf(row.subscription_end_date) };
}

/** Moves the company from `from` to `to` (conditional on `from`); false when it was no longer in `from`. */
export async function moveCompanyStatus(
  em: EntityManager,
  companyId: string,
  from: CompanyStatus,
  to: CompanyStatus,
  at: Date,
): Promise<boolean> {
  const changed = await em.nativeUpdate(
    ZoneCompanyEntity,
    { company_id: companyId, status: from },
    { status: to, updated_at: at },
  );
  return changed === 1;
}
