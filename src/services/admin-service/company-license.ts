import type { CompanyLicense, CompanyLicenseResult } from "../../../generated/types.ts";
import { findCompanyHead, setCompanyLicenseRow } from "../../repos/companies.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

const adminError = errorsFor("AdminService", "AdminError");

/** The licence as stored: trimmed texts, instants in ISO form, granted_by the administrator; or why it is invalid. */
export function cleanLicense(license: CompanyLicense, adminEmail: string): CompanyLicense | string {
  const number = license.license_number.trim();
  const type = license.license_type.trim();
  if (number.length === 0) return "license_number must not be blank";
  if (type.length === 0) return "license_type must not be blank";
  const issued = new Date(license.issued_at);
  if (Number.isNaN(issued.getTime())) return "issued_at is not a date-time";
  const expires = license.expires_at === null ? null : new Date(license.expires_at);
  if (expires && Number.isNaN(expires.getTime())) return "expires_at is not a date-time";
  if (expires && expires.getTime() <= issued.getTime()) return "expires_at must be after issued_at";
  return {
    license_number: number,
    license_type: type,
    issued_at: issued.toISOString(),
    expires_at: expires ? expires.toISOString() : null,
    granted_by: adminEmail,
  };
}

/** adminservice.grant_license: sets or replaces the licence of a company that is not voided. */
export async function grantLicense(
  ctx: RpcContext,
  companyId: string,
  license: CompanyLicense,
): Promise<CompanyLicenseResult> {
  const clean = cleanLicense(license, requireCaller(ctx).email);
  if (typeof clean === "string") throw adminError("InvalidInput", clean);
  const company = await findCompanyHead(ctx.em, companyId);
  if (!company) throw adminError.notFound("company");
  const voided = () => adminError("InvalidState", "the company registration was voided");
  if (company.status === "voided") throw voided();
  if (!(await setCompanyLicenseRow(ctx.em, companyId, clean, ctx.now()))) throw voided();
  const adminActionId = recordAdminAction(ctx, {
    action: "grant_license",
    targetType: "company",
    targetId: companyId,
    details: { license: clean, replaced: company.license },
  });
  return { company_id: companyId, name: company.name, license: clean, admin_action_id: adminActionId };
}

/** adminservice.revoke_license: clears the licence of a licensed company (also a voided one). */
export async function revokeLicense(ctx: RpcContext, companyId: string, reason: string): Promise<CompanyLicenseResult> {
  const cleanReason = reason.trim();
  if (cleanReason.length === 0) throw adminError("InvalidInput", "a reason is required");
  const company = await findCompanyHead(ctx.em, companyId);
  if (!company) throw adminError.notFound("company");
  const unlicensed = () => adminError("InvalidState", "the company has no licence");
  if (company.license === null) throw unlicensed();
  if (!(await setCompanyLicenseRow(ctx.em, companyId, null, ctx.now()))) throw unlicensed();
  const adminActionId = recordAdminAction(ctx, {
    action: "revoke_license",
    targetType: "company",
    targetId: companyId,
    details: { reason: cleanReason, revoked: company.license },
  });
  return { company_id: companyId, name: company.name, license: null, admin_action_id: adminActionId };
}
