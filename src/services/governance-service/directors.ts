import type { CompanyRoleRow, SigningAuthorityRow } from "../../../generated/entities.ts";
import type { GovernanceServiceHandlers } from "../../../generated/handlers/index.ts";
import type { CompanyRoleResult, SigningAuthorityResult } from "../../../generated/types.ts";
import { appointmentRefusal, directorRemovalRefusal, grantRefusal, isBoardRole } from "../../domain/directors.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { lockCompanyStatus } from "../../repos/companies.ts";
import { currentCompanyRoles } from "../../repos/company-access.ts";
import { closeRole, holdersOf, openRole, rolesOfCompanyAt } from "../../repos/company-roles.ts";
import { findResident } from "../../repos/digital-residents.ts";
import { insertAuthority, latestAuthority, revokeAuthority } from "../../repos/signing-authorities.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { toCompanyRoleResult } from "../company-role-service.ts";

/**
 * Directors and signing authority (issue 17, docs/decisions.md "Directors, signing authority and shareholder
 * invitations (issue 17)"). Directors are rows of the append-only CompanyRole table (appoint opens one, remove closes
 * it); signing authority is its own record (SigningAuthority). The dispatcher checked the company (`x-target`
 * ZoneCompany), the caller's role, the company's status (`operable`), the caller binding and the acting resident's
 * status, and writes the audit row (target: the result's sid). Every operation first locks the company row, which
 * serializes director changes of one company (so concurrent removals can never together leave it without a director
 * or founder, nor two grants write two active authorities): a write guard of the business rule, not authorization.
 */

type Handlers = GovernanceServiceHandlers<RpcContext>;

const governanceError = errorsFor("GovernanceService", "GovernanceError");

const refused = (r: Refusal<"InvalidState" | "AlreadyExists">) => governanceError(r.refusal, r.message, r.details);

/**
 * Locks the company row until the call's transaction ends: director changes of one company run one after the other,
 * so each decides on the roles the previous one left (the last-director rule of remove_director). The company exists
 * (the dispatcher loaded it); its status was checked there, in this same transaction.
 */
async function lockDirectorChanges(ctx: RpcContext, companyId: string): Promise<void> {
  if (!(await lockCompanyStatus(ctx.em, companyId))) throw governanceError.notFound("company");
}

async function requireResident(ctx: RpcContext, residentId: string): Promise<void> {
  if (!(await findResident(ctx.em, residentId))) throw governanceError.notFound("resident");
}

async function toRoleResult(ctx: RpcContext, row: CompanyRoleRow): Promise<CompanyRoleResult> {
  return toCompanyRoleResult(row, (await holdersOf(ctx.em, [row.subject_id])).get(row.subject_id));
}

function toAuthorityResult(row: SigningAuthorityRow): SigningAuthorityResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    resident_id: row.resident_id,
    status: row.status,
    valid_from: row.valid_from.toISOString(),
    valid_to: row.valid_to?.toISOString() ?? null,
  };
}

export const appointDirector: Handlers["appointDirector"] = async (ctx, p) => {
  await lockDirectorChanges(ctx, p.company_id);
  await requireResident(ctx, p.resident_id);
  const now = ctx.now();
  const already = appointmentRefusal(await currentCompanyRoles(ctx.em, p.company_id, [p.resident_id], now));
  if (already) throw refused(already);
  const row = await openRole(ctx.em, {
    companyId: p.company_id,
    subjectId: p.resident_id,
    role: "director",
    classificationScope: ["director"],
    validFrom: now,
    createdBy: p.appointed_by,
  });
  return toRoleResult(ctx, row);
};

export const removeDirector: Handlers["removeDirector"] = async (ctx, p) => {
  await lockDirectorChanges(ctx, p.company_id);
  const now = ctx.now();
  const current = await rolesOfCompanyAt(ctx.em, p.company_id, now);
  const seat = current.find((r) => r.role === "director" && r.subject_id === p.resident_id);
  if (!seat) throw governanceError.notFound("director");
  const empty = directorRemovalRefusal(current.filter((r) => r.sid !== seat.sid && isBoardRole(r.role)).length);
  if (empty) throw refused(empty);
  const closed = await closeRole(ctx.em, seat.sid, now);
  if (!closed) throw governanceError.notFound("director");
  await revokeAuthority(ctx.em, p.company_id, p.resident_id, p.removed_by, now);
  return toRoleResult(ctx, closed);
};

export const grantSigningAuthority: Handlers["grantSigningAuthority"] = async (ctx, p) => {
  await lockDirectorChanges(ctx, p.company_id);
  await requireResident(ctx, p.resident_id);
  const now = ctx.now();
  const notDirector = grantRefusal(await currentCompanyRoles(ctx.em, p.company_id, [p.resident_id], now));
  if (notDirector) throw refused(notDirector);
  const row = await insertAuthority(
    ctx.em,
    { companyId: p.company_id, residentId: p.resident_id, grantedBy: p.granted_by },
    now,
  );
  if (!row) throw governanceError("AlreadyExists", "the resident already holds signing authority");
  return toAuthorityResult(row);
};

export const revokeSigningAuthority: Handlers["revokeSigningAuthority"] = async (ctx, p) => {
  await lockDirectorChanges(ctx, p.company_id);
  const revoked = await revokeAuthority(ctx.em, p.company_id, p.resident_id, p.revoked_by, ctx.now());
  if (revoked) return toAuthorityResult(revoked);
  const latest = await latestAuthority(ctx.em, p.company_id, p.resident_id);
  if (!latest) throw governanceError.notFound("signing_authority");
  return toAuthorityResult(latest);
};
