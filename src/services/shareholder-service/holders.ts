import type { EntityType } from "../../../generated/types.ts";
import { companyRoles } from "../../auth/access.ts";
import { isCorporateSubject } from "../../domain/company-roles.ts";
import { companyStatusRefusal } from "../../domain/company-status.ts";
import { findCompany } from "../../repos/companies.ts";
import { findResident } from "../../repos/digital-residents.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { actsAs, shareholderError } from "./common.ts";

/**
 * Holders of units: a resident, or a company (a corporate holder: a subject id of the company form, seed 000
 * CompanyRole). Those who act for a corporate holder are its directors: the callers holding a current director or
 * founder role in it through a resident they own, and its owning user, who counts as founder (docs/decisions.md
 * "Corporate holders and cooperative membership (issue 30)").
 */

export interface HolderFacts {
  /** The entity type whose key countersigns for the holder. */
  keyType: EntityType;
  name: string;
  email: string;
}

/** The holder the subject id names, or null when none exists. */
export async function findHolder(ctx: RpcContext, subjectId: string): Promise<HolderFacts | null> {
  if (isCorporateSubject(subjectId)) {
    const company = await findCompany(ctx.em, subjectId);
    return company ? { keyType: "company", name: company.name, email: company.email ?? "" } : null;
  }
  const resident = await findResident(ctx.em, subjectId);
  if (!resident) return null;
  return { keyType: "resident", name: `${resident.first_name} ${resident.last_name}`.trim(), email: resident.email };
}

/**
 * A recipient of units named at initiation: a known resident, or a company other than the issuing one that may
 * operate (a suspended, lapsed or voided company takes no new holding). NotFound / InvalidInput / InvalidState.
 */
export async function requireRecipientHolder(ctx: RpcContext, subjectId: string, companyId: string): Promise<void> {
  if (!isCorporateSubject(subjectId)) {
    if (!(await findResident(ctx.em, subjectId))) throw shareholderError.notFound("recipient resident");
    return;
  }
  if (subjectId === companyId)
    throw shareholderError("InvalidInput", "a company cannot hold its own units", { field: "to_resident_id" });
  const company = await findCompany(ctx.em, subjectId);
  if (!company) throw shareholderError.notFound("recipient company");
  const refusal = companyStatusRefusal(company.status, "operate");
  if (refusal) throw shareholderError(refusal.refusal, `recipient company: ${refusal.message}`, refusal.details);
}

/** Whether the caller acts for the holder: owns the resident (no proxy), or directs the corporate holder. */
export async function actsForHolder(ctx: RpcContext, subjectId: string): Promise<boolean> {
  if (!isCorporateSubject(subjectId)) return actsAs(ctx, subjectId, false);
  const roles = await companyRoles(ctx.em, requireCaller(ctx), subjectId, ctx.now());
  return (roles ?? []).some((r) => r === "director" || r === "founder");
}
