import type { ShareTransferRow } from "../../../generated/entities.ts";
import type { TransferResult } from "../../../generated/types.ts";
import { companyRoles, mayActAsResident } from "../../auth/access.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

export const shareholderError = errorsFor("ShareholderService", "ShareholderError");

export function refused(r: Refusal): Error {
  return shareholderError(r.refusal as never, r.message, r.details);
}

/** Whether the caller holds any current role in the company (visibility of a transfer to its members). */
export async function isMemberOf(ctx: RpcContext, companyId: string): Promise<boolean> {
  const caller = requireCaller(ctx);
  return isAdminSession(caller) || ((await companyRoles(ctx.em, caller, companyId, ctx.now())) ?? []).length > 0;
}

/** Whether the caller may act as the resident (owns it, or, when allowed, holds an effective proxy for it). */
export function actsAs(ctx: RpcContext, residentId: string, allowProxy = true): Promise<boolean> {
  return mayActAsResident(ctx.em, requireCaller(ctx), residentId, ctx.now(), allowProxy);
}

/** An administrator's write on a company (the dispatcher let the session through) records an AdminAction. */
export function recordIfAdmin(
  ctx: RpcContext,
  action: string,
  companyId: string,
  details: Record<string, unknown>,
): void {
  if (isAdminSession(requireCaller(ctx)))
    recordAdminAction(ctx, { action, targetType: "company", targetId: companyId, details });
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
    rejected_at: iso(row.rejected_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
