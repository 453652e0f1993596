import type { EntityManager } from "@mikro-orm/postgresql";
import type { SigningAuthorityRow } from "../../generated/entities.ts";
import { dateOf, sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";

/**
 * The SigningAuthority table (issue 17): one `active` row per company and resident at most (the partial unique
 * index signing_authority_active_holder_unique); revocation sets status `revoked`, valid_to and revoked_by once.
 */

type Raw = Omit<SigningAuthorityRow, "valid_from" | "valid_to" | "created_at" | "updated_at"> & {
  valid_from: Date | string;
  valid_to: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const COLUMNS = `sid, company_id, resident_id, status, valid_from, valid_to, granted_by, revoked_by, created_at, updated_at`;

function toRow(r: Raw): SigningAuthorityRow {
  return {
    ...r,
    valid_from: dateOf(r.valid_from),
    valid_to: dateOf(r.valid_to),
    created_at: dateOf(r.created_at),
    updated_at: dateOf(r.updated_at),
  };
}

/**
 * Writes an active authority from `now`; null (nothing written) when the resident already holds an active one
 * (the unique index decides, so of concurrent grants one writes).
 */
export async function insertAuthority(
  em: EntityManager,
  grant: { companyId: string; residentId: string; grantedBy: string },
  now: Date,
): Promise<SigningAuthorityRow | null> {
  const rows = await sqlRows<Raw>(
    em,
    `insert into "signing_authority" (${COLUMNS}) values (?, ?, ?, 'active', ?, null, ?, null, ?, ?)
     on conflict ("company_id", "resident_id") where "status" = 'active' do nothing
     returning ${COLUMNS}`,
    [uuidv7(now), grant.companyId, grant.residentId, now, grant.grantedBy, now, now],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** The resident's newest authority row for the company (active or not), or null when it never held one. */
export async function latestAuthority(
  em: EntityManager,
  companyId: string,
  residentId: string,
): Promise<SigningAuthorityRow | null> {
  const rows = await sqlRows<Raw>(
    em,
    `select ${COLUMNS} from "signing_authority" where company_id = ? and resident_id = ?
     order by (status = 'active') desc, valid_from desc, sid desc limit 1`,
    [companyId, residentId],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/**
 * Revokes the resident's active authority for the company at `at` (a conditional update: of concurrent revocations
 * one writes); the revoked row, or null when none was active.
 */
export async function revokeAuthority(
  em: EntityManager,
  companyId: string,
  residentId: string,
  revokedBy: string,
  at: Date,
): Promise<SigningAuthorityRow | null> {
  const rows = await sqlRows<Raw>(
    em,
    `update "signing_authority" set status = 'revoked', valid_to = ?, revoked_by = ?, updated_at = ?
     where company_id = ? and resident_id = ? and status = 'active'
     returning ${COLUMNS}`,
    [at, revokedBy, at, companyId, residentId],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/** Whether one of the residents holds the company's signing authority now. */
export async function holdsSigningAuthority(
  em: EntityManager,
  companyId: string,
  residentIds: readonly string[],
): Promise<boolean> {
  if (residentIds.length === 0) return false;
  const rows = await sqlRows<{ sid: string }>(
    em,
    `select sid from "signing_authority" where company_id = ? and status = 'active'
       and resident_id in (${residentIds.map(() => "?").join(", ")}) limit 1`,
    [companyId, ...residentIds],
  );
  return rows.length > 0;
}
