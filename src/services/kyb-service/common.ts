import type { ExternalCompanyRegistrationRow } from "../../../generated/entities.ts";
import type { ExternalCompanyRegistrationResult } from "../../../generated/types.ts";
import * as registrations from "../../repos/external-companies.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

export const kybError = errorsFor("KybService", "KybError");

/** The submitter's (own, not through a partner key) or any for an administrator in a session; else NotFound. */
export async function loadVisibleRegistration(
  ctx: RpcContext,
  registrationId: string,
): Promise<ExternalCompanyRegistrationRow> {
  const caller = requireCaller(ctx);
  const row = await registrations.findRegistration(ctx.em, registrationId);
  const mine = row !== null && row.user_id === caller.userId && caller.partnerId === null;
  if (!row || !(mine || isAdminSession(caller))) throw kybError.notFound("registration");
  return row;
}

/** An administrator's decision: any registration, or NotFound. */
export async function loadRegistration(
  ctx: RpcContext,
  registrationId: string,
): Promise<ExternalCompanyRegistrationRow> {
  const row = await registrations.findRegistration(ctx.em, registrationId);
  if (!row) throw kybError.notFound("registration");
  return row;
}

export function toRegistrationResult(row: ExternalCompanyRegistrationRow): ExternalCompanyRegistrationResult {
  return {
    registration_id: row.sid,
    user_id: row.user_id,
    submitter_dr_id: row.submitter_dr_id,
    legal_name: row.legal_name,
    jurisdiction: row.jurisdiction,
    registration_number: row.registration_number,
    kyb_status: row.kyb_status,
    documents: [...row.documents],
    approved_by: row.approved_by,
    linked_dr_id: row.linked_dr_id,
    kyb_scan_ref: row.kyb_scan_ref,
    kyb_provider: row.kyb_provider,
    kyb_provider_status: row.kyb_provider_status,
    kyb_checked_at: row.kyb_checked_at?.toISOString() ?? null,
    rejection_reason: row.rejection_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
