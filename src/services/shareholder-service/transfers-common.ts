import type { ShareTransferRow } from "../../../generated/entities.ts";
import type { TransferResult } from "../../../generated/types.ts";
import { companyRoles, mayActAsResident, satisfiesCompanyRole } from "../../auth/access.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { recordAdminAction } from "../../repos/admin-actions.ts";
import { requireCompanyOperable } from "../../repos/companies.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

export const shareholderError = errorsFor("ShareholderService", "ShareholderError");

export function refused(r: Refusal): Error {
  return shareholderError(r.refusal as never, r.message, r.details);
}

/** The company status guard (only an active company operates): InvalidState with `status`. */
export function requireOperable(ctx: RpcContext, companyId: string): Promise<void> {
  return requireCompanyOperable(ctx.em, companyId, refused);
}

/** How the caller stands towards a company: an administrator's session, or its current roles (empty: none). */
export interface CompanyStanding {
  admin: boolean;
  roles: string[];
}

export async function standingIn(ctx: RpcContext, companyId: string): Promise<CompanyStanding> {
  const caller = requireCaller(ctx);
  if (isAdminSession(caller)) return { admin: true, roles: [] };
  return { admin: false, roles: (await companyRoles(ctx.em, caller, companyId, ctx.now())) ?? [] };
}

/**
 * The dispatcher's company rule for operations whose company comes from the record: an administrator's session
 * and holders of `role` pass (a founder acts as director); other members get Forbidden, anyone else NotFound.
 */
export async function requireRecordRole(
  ctx: RpcContext,
  companyId: string,
  role: string,
  what: string,
): Promise<CompanyStanding> {
  const standing = await standingIn(ctx, companyId);
  if (standing.admin || satisfiesCompanyRole(standing.roles, role)) return standing;
  if (standing.roles.length > 0) throw shareholderError("Forbidden", `needs the ${role} role in ${companyId}`);
  throw shareholderError.notFound(what);
}

/** Whether the caller may act as the resident (owns it, or, when allowed, holds an effective proxy for it). */
export function actsAs(ctx: RpcContext, residentId: string, allowProxy = true): Promise<boolean> {
  return mayActAsResident(ctx.em, requireCaller(ctx), residentId, ctx.now(), allowProxy);
}

/** An administrator's write on a company records an AdminAction in the same transaction. */
export function recordIfAdmin(
  ctx: RpcContext,
  standing: CompanyStanding,
  action: string,
  companyId: string,
  details: Record<string, unknown>,
): void {
  if (standing.admin) recordAdminAction(ctx, { action, targetType: "company", targetId: companyId, details });
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toTransferResult(row: ShareTransferRow): TransferResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    from_resident_id: row.from_resident_id,
    to_resident_id: row.to_resident_id,
    units: row.units,
    reason: row.reason,
    status: row.status,
    transfer_hash: row.transfer_hash,
    to_signature: row.to_signature,
    approved_at: iso(row.approved_at),
    completed_at: iso(row.completed_at),
    cancelled_at: iso(row.cancelled_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
