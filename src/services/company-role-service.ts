import type { CompanyRoleRow } from "../../generated/entities.ts";
import type { CompanyRoleServiceHandlers } from "../../generated/handlers/index.ts";
import type { CompanyRoleResult } from "../../generated/types.ts";
import { mayActAsResident } from "../auth/access.ts";
import { instantOf, isCorporateSubject } from "../domain/company-roles.ts";
import { isRefusal } from "../domain/refusal.ts";
import { companyOwner } from "../repos/company-access.ts";
import { type Holder, holdersOf, rolesOfCompanyAt, rolesOfSubjectAt } from "../repos/company-roles.ts";
import { requireCaller } from "../rpc/caller.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

/**
 * CompanyRoleService (issue 16): reads of the append-only CompanyRole table at an instant. The dispatcher checked
 * company:member for list_by_company (an administrator's session passes). holder_name is resolved now, for display
 * only (null when the holder is unknown or anonymous); list output blanks subject_id when holder_external_id is set.
 */

const roleError = errorsFor("CompanyRoleService", "CompanyRoleError");

function instant(ctx: RpcContext, asOfEpoch: number): Date {
  const at = instantOf(asOfEpoch, ctx.now());
  if (isRefusal(at)) throw roleError(at.refusal, at.message, at.details);
  return at;
}

/** A role row as the wire shows it: holder names resolved at read time, subject_id blanked behind an external id. */
export function toCompanyRoleResult(row: CompanyRoleRow, holder: Holder | undefined): CompanyRoleResult {
  const externalId = row.holder_external_id ?? holder?.externalId ?? null;
  return {
    sid: row.sid,
    company_id: row.company_id,
    subject_id: externalId === null ? row.subject_id : null,
    role: row.role,
    valid_from: row.valid_from.toISOString(),
    valid_to: row.valid_to?.toISOString() ?? null,
    classification_scope: [...row.classification_scope],
    created_by: row.created_by,
    holder_name: holder && !holder.anonymous ? holder.name : null,
    holder_external_id: externalId,
    created_at: row.created_at.toISOString(),
  };
}

async function render(ctx: RpcContext, rows: CompanyRoleRow[]) {
  const holders = await holdersOf(ctx.em, [...new Set(rows.map((r) => r.subject_id))]);
  return { items: rows.map((r) => toCompanyRoleResult(r, holders.get(r.subject_id))) };
}

/** Whether the caller may list the subject's roles: a resident it may act as, or a company it owns. */
async function maySeeSubject(ctx: RpcContext, subjectId: string): Promise<boolean> {
  const caller = requireCaller(ctx);
  if (!isCorporateSubject(subjectId)) return mayActAsResident(ctx.em, caller, subjectId, ctx.now());
  const owner = await companyOwner(ctx.em, subjectId);
  return owner !== null && owner.user_id === caller.userId && owner.partner_id === caller.partnerId;
}

export const companyRoleService: CompanyRoleServiceHandlers<RpcContext> = {
  async listByCompany(ctx, params) {
    const at = instant(ctx, params.as_of_epoch);
    if (!(await companyOwner(ctx.em, params.company_id))) throw roleError.notFound("company");
    return render(ctx, await rolesOfCompanyAt(ctx.em, params.company_id, at));
  },
  async listByResident(ctx, params) {
    const at = instant(ctx, params.as_of_epoch);
    if (!(await maySeeSubject(ctx, params.subject_id))) throw roleError.notFound("subject");
    return render(ctx, await rolesOfSubjectAt(ctx.em, params.subject_id, at));
  },
};
