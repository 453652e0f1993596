import type { CompanyStatusChangeResult } from "../../../generated/types.ts";
import { statusAfterSuspension, suspensionRefusal } from "../../domain/company-status.ts";
import { lockCompanyStatus, moveCompanyStatus } from "../../repos/companies.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

const adminError = errorsFor("AdminService", "AdminError");

/**
 * adminservice.suspend_company (`reason` given) and unsuspend_company (`reason` null): the company row is locked
 * for the call, the move decided by src/domain/company-status.ts, written as one conditional update and recorded as
 * an AdminAction. A suspension moves an active or inactive company to `suspended`; lifting it lands where the
 * company's dates put it (active while the subscription runs, else inactive).
 */
export async function setCompanySuspension(
  ctx: RpcContext,
  companyId: string,
  reason: string | null,
): Promise<CompanyStatusChangeResult> {
  const suspend = reason !== null;
  const cleanReason = reason?.trim() ?? null;
  if (suspend && !cleanReason) throw adminError("InvalidInput", "a reason is required");
  const company = await lockCompanyStatus(ctx.em, companyId);
  if (!company) throw adminError.notFound("company");
  const refusal = suspensionRefusal(company.status, suspend);
  if (refusal) throw adminError(refusal.refusal, refusal.message, refusal.details);
  const now = ctx.now();
  const to = suspend ? "suspended" : statusAfterSuspension(company.subscription_end_date, now);
  // The row is locked and its status checked above, so this moves it; false would mean a broken lock.
  if (!(await moveCompanyStatus(ctx.em, companyId, company.status, to, now))) {
    throw new Error(`company ${companyId} changed under its row lock`);
  }
  const adminActionId = recordAdminAction(ctx, {
    action: suspend ? "suspend_company" : "unsuspend_company",
    targetType: "company",
    targetId: companyId,
    details: suspend ? { reason: cleanReason, previous_status: company.status } : { status: to },
  });
  return {
    company_id: companyId,
    name: company.name,
    status: to,
    previous_status: company.status,
    reason: cleanReason,
    admin_action_id: adminActionId,
  };
}
