import type { CompanyVoidResult } from "../../../generated/types.ts";
import { isLiveCompanyStatus } from "../../domain/company-status.ts";
import { findCompanyHead, voidCompanyRow } from "../../repos/companies.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

const adminError = errorsFor("AdminService", "AdminError");

/**
 * adminservice.void_company: a live company becomes `voided` with its reason, instant and administrator set in one
 * conditional update (a concurrent second void finds nothing to change and is refused); the record is kept.
 */
export async function voidCompany(ctx: RpcContext, companyId: string, reason: string): Promise<CompanyVoidResult> {
  const cleanReason = reason.trim();
  if (cleanReason.length === 0) throw adminError("InvalidInput", "a reason is required");
  const company = await findCompanyHead(ctx.em, companyId);
  if (!company) throw adminError.notFound("company");
  if (!isLiveCompanyStatus(company.status)) throw adminError("InvalidState", "the company is already voided");
  const now = ctx.now();
  const by = requireCaller(ctx).email;
  if (!(await voidCompanyRow(ctx.em, companyId, { reason: cleanReason, at: now, by }))) {
    throw adminError("InvalidState", "the company is already voided");
  }
  recordAdminAction(ctx, {
    action: "void_company",
    targetType: "company",
    targetId: companyId,
    details: { reason: cleanReason, previous_status: company.status },
  });
  return {
    company_id: companyId,
    name: company.name,
    status: "voided",
    previous_status: company.status,
    void_reason: cleanReason,
    voided_at: now.toISOString(),
    voided_by: by,
  };
}
