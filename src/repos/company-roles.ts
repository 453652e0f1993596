import type { EntityManager } from "@mikro-orm/postgresql";
import {
  CompanyRoleEntity,
  type CompanyRoleRow,
  DigitalResidentEntity,
  ZoneCompanyEntity,
} from "../../generated/entities.ts";
import { isFormattedId } from "../domain/company-roles.ts";
import { uuidv7 } from "../domain/ids.ts";

/**
 * The append-only CompanyRole table. A row is written once; the only later write is setting its `valid_to` once
 * (closeRole). A change (changeRole) closes the row and writes a new one from the same instant.
 */

export interface RoleGrant {
  companyId: string;
  subjectId: string;
  role: CompanyRoleRow["role"];
  classificationScope: readonly string[];
  validFrom: Date;
  createdBy: string;
  holderExternalId?: string | null;
}

/**
 * Writes a new open role row (valid_to null). `createdBy` must be a formatted id (`roleWriter`): anything else is a
 * programming error (RangeError), so no user id or other name reaches the column.
 */
export async function openRole(
  em: EntityManager,
  grant: RoleGrant,
  now: Date = grant.validFrom,
): Promise<CompanyRoleRow> {
  if (!isFormattedId(grant.createdBy)) throw new RangeError(`created_by must be a formatted id: ${grant.createdBy}`);
  const row: CompanyRoleRow = {
    sid: uuidv7(now),
    company_id: grant.companyId,
    subject_id: grant.subjectId,
    role: grant.role,
    valid_from: grant.validFrom,
    valid_to: null,
    classification_scope: [...grant.classificationScope],
    created_by: grant.createdBy,
    holder_name: null,
    holder_external_id: grant.holderExternalId ?? null,
    created_at: now,
    updated_at: now,
  };
  await em.insert(CompanyRoleEntity, row);
  return row;
}

export function findRole(em: EntityManager, roleSid: string): Promise<CompanyRoleRow | null> {
  return em.findOne(CompanyRoleEntity, { sid: roleSid }, { disableIdentityMap: true });
}

/**
 * Ends an open role at `at` (exclusive end): a conditional update, so of concurrent closes one writes. A closed
 * role is left as it is (its row is answered unchanged); null when there is no such role. `at` before the role's
 * start is a programming error (RangeError): the window would be empty.
 */
export async function closeRole(em: EntityManager, roleSid: string, at: Date): Promise<CompanyRoleRow | null> {
  const closed = await em.nativeUpdate(
    CompanyRoleEntity,
    { sid: roleSid, valid_to: null, valid_from: { $lte: at } },
    { valid_to: at, updated_at: at },
  );
  const row = await findRole(em, roleSid);
  if (closed === 0 && row && row.valid_to === null) throw new RangeError("a role cannot end before it starts");
  return row;
}

export interface RoleChange {
  role?: CompanyRoleRow["role"];
  classificationScope?: readonly string[];
  createdBy: string;
}

/**
 * Changes an open role from `at`: closes it at `at` and writes a new row (same company, subject and holder id,
 * the changed role or scope) valid from `at`. Null, and nothing written, when the role is unknown or already
 * closed (another change or close won).
 */
export async function changeRole(
  em: EntityManager,
  roleSid: string,
  at: Date,
  change: RoleChange,
): Promise<{ closed: CompanyRoleRow; opened: CompanyRoleRow } | null> {
  const before = await findRole(em, roleSid);
  if (!before || before.valid_to !== null) return null;
  const closedCount = await em.nativeUpdate(
    CompanyRoleEntity,
    { sid: roleSid, valid_to: null, valid_from: { $lte: at } },
    { valid_to: at, updated_at: at },
  );
  if (closedCount === 0) {
    if (before.valid_from > at) throw new RangeError("a role cannot change before it starts");
    return null;
  }
  const opened = await openRole(
    em,
    {
      companyId: before.company_id,
      subjectId: before.subject_id,
      role: change.role ?? before.role,
      classificationScope: change.classificationScope ?? before.classification_scope,
      validFrom: at,
      createdBy: change.createdBy,
      holderExternalId: before.holder_external_id,
    },
    at,
  );
  return { closed: { ...before, valid_to: at, updated_at: at }, opened };
}

const inEffectAt = (at: Date) => ({
  valid_from: { $lte: at },
  $or: [{ valid_to: null }, { valid_to: { $gt: at } }],
});

/** The company's roles in effect at `at`, newest valid_from first. */
export function rolesOfCompanyAt(em: EntityManager, companyId: string, at: Date): Promise<CompanyRoleRow[]> {
  return em.find(
    CompanyRoleEntity,
    { company_id: companyId, ...inEffectAt(at) },
    { orderBy: { valid_from: "desc", sid: "desc" }, disableIdentityMap: true },
  );
}

/** The roles a subject (resident or company) holds at `at` across companies, newest valid_from first. */
export function rolesOfSubjectAt(em: EntityManager, subjectId: string, at: Date): Promise<CompanyRoleRow[]> {
  return em.find(
    CompanyRoleEntity,
    { subject_id: subjectId, ...inEffectAt(at) },
    { orderBy: { valid_from: "desc", sid: "desc" }, disableIdentityMap: true },
  );
}

export interface Holder {
  name: string;
  externalId: string | null;
  anonymous: boolean;
}

/** Display facts of role holders (residents and companies) by formatted id, read now. */
export async function holdersOf(em: EntityManager, subjectIds: string[]): Promise<Map<string, Holder>> {
  const out = new Map<string, Holder>();
  if (subjectIds.length === 0) return out;
  const residents = await em.find(
    DigitalResidentEntity,
    { resident_id: { $in: subjectIds } },
    {
      fields: ["resident_id", "first_name", "last_name", "external_id", "anonymity_enabled"],
      disableIdentityMap: true,
    },
  );
  for (const r of residents) {
    const name = `${r.first_name} ${r.last_name}`.trim();
    out.set(r.resident_id, { name, externalId: r.external_id, anonymous: r.anonymity_enabled });
  }
  const companies = await em.find(
    ZoneCompanyEntity,
    { company_id: { $in: subjectIds } },
    { fields: ["company_id", "name", "external_id", "anonymity_enabled"], disableIdentityMap: true },
  );
  for (const c of companies) {
    out.set(c.company_id, { name: c.name, externalId: c.external_id, anonymous: c.anonymity_enabled });
  }
  return out;
}
