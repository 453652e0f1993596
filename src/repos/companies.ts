import type { EntityManager } from "@mikro-orm/postgresql";
import { ZoneCompanyEntity, type ZoneCompanyRow } from "../../generated/entities.ts";
import type { CompanyLicense, CompanyStatus } from "../../generated/types.ts";
import { dateOf, sqlRows } from "../db/sql.ts";
import { type CompanyAction, companyStatusRefusal } from "../domain/company-status.ts";
import { nameKey } from "../domain/name-key.ts";
import type { Refusal } from "../domain/refusal.ts";

/** ZoneCompany reads and the administrator writes (void, licence) as conditional updates. */

export type CompanyHead = Pick<ZoneCompanyRow, "company_id" | "name" | "status" | "license" | "company_type">;

/** The company's id, name, status, licence and type, read fresh (not from the identity map). */
export function findCompanyHead(em: EntityManager, companyId: string): Promise<CompanyHead | null> {
  return em.findOne(
    ZoneCompanyEntity,
    { company_id: companyId },
    { fields: ["company_id", "name", "status", "license", "company_type"], disableIdentityMap: true },
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
 * Whether a company holding its name already bears `name` or a look-alike of it (the same nameKey): registered and
 * not voided, i.e. active, inactive or suspended, the rows of the unique index zone_company_live_name_unique.
 */
export async function liveNameTaken(em: EntityManager, name: string): Promise<boolean> {
  const rows = await sqlRows<{ company_id: string }>(
    em,
    `select company_id from "zone_company" where name_key = ? and status in ('active', 'inactive', 'suspended') limit 1`,
    [nameKey(name)],
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

/** One page of the companies owned by the pair (user_id, partner_id), voided included, newest first, and the total. */
export async function listOwnedCompanies(
  em: EntityManager,
  owner: { userId: string; partnerId: string | null },
  page: { offset: number; limit: number },
): Promise<{ rows: ZoneCompanyRow[]; total: number }> {
  const [rows, total] = await em.findAndCount(
    ZoneCompanyEntity,
    { user_id: owner.userId, partner_id: owner.partnerId },
    { orderBy: { created_at: "desc", sid: "desc" }, offset: page.offset, limit: page.limit, disableIdentityMap: true },
  );
  return { rows, total };
}

export type ProfileChanges = Partial<
  Pick<
    ZoneCompanyRow,
    | "description"
    | "address"
    | "email"
    | "phone"
    | "website"
    | "logo_url"
    | "industry"
    | "tax_id"
    | "crypto_wallets"
    | "auto_renewal"
    | "due_process_executors"
  >
>;

/** Writes profile fields while the company is still in `status` (false: it moved meanwhile, nothing written). */
export async function updateCompanyProfile(
  em: EntityManager,
  companyId: string,
  status: ZoneCompanyRow["status"],
  changes: ProfileChanges,
  at: Date,
): Promise<boolean> {
  const changed = await em.nativeUpdate(
    ZoneCompanyEntity,
    { company_id: companyId, status },
    { ...changes, updated_at: at },
  );
  return changed === 1;
}

/**
 * Deletes a company still in `draft` or `pending_signatures`, never activated (no subscription started) and whose
 * roles have all not started yet at `now` (their rows go with it): a started role is history the append-only table
 * keeps. False, and nothing deleted, when the company moved meanwhile or a role has started.
 */
export async function deleteUnstartedCompany(em: EntityManager, companyId: string, now: Date): Promise<boolean> {
  const rows = await sqlRows<{ company_id: string }>(
    em,
    `delete from "zone_company" c where c.company_id = ? and c.status in ('draft', 'pending_signatures')
       and c.subscription_start_date is null
       and not exists (select 1 from "company_role" r where r.company_id = c.company_id and r.valid_from <= ?)
     returning c.company_id`,
    [companyId, now],
  );
  if (rows.length === 0) return false;
  await sqlRows(em, `delete from "company_role" where company_id = ? returning sid`, [companyId]);
  return true;
}

/** Sets the anonymity flag if it differs, with anonymity_changed_at; rows touched (0: it had that value). */
export function flipCompanyAnonymity(
  em: EntityManager,
  companyId: string,
  enabled: boolean,
  now: Date,
): Promise<number> {
  return em.nativeUpdate(
    ZoneCompanyEntity,
    { company_id: companyId, anonymity_enabled: !enabled },
    { anonymity_enabled: enabled, anonymity_changed_at: now, updated_at: now },
  );
}
