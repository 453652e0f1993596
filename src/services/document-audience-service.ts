import type { DocumentAudienceRow } from "../../generated/entities.ts";
import type { DocumentAudienceServiceHandlers } from "../../generated/handlers/index.ts";
import type { DocumentAudienceResult } from "../../generated/types.ts";
import { companyRoles, mayActAsResident } from "../auth/access.ts";
import { isCorporateSubject } from "../domain/company-roles.ts";
import { currentAudience } from "../domain/document-visibility.ts";
import { companyOwner } from "../repos/company-access.ts";
import { audienceRowsByRef, mayView } from "../repos/document-audiences.ts";
import { requireCaller } from "../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

/**
 * DocumentAudienceService (issue 16): the visibility rule (src/domain/document-visibility.ts) asked about one
 * subject, and a document's audience history. Neither writes anything, audit rows included.
 */

const audienceError = errorsFor("DocumentAudienceService", "DocumentAudienceError");

/** Whether the caller owns the subject: a resident it may act as (owned, or an effective Proxy), or a company it owns. */
async function ownsSubject(ctx: RpcContext, subjectId: string): Promise<boolean> {
  const caller = requireCaller(ctx);
  if (!isCorporateSubject(subjectId)) return mayActAsResident(ctx.em, caller, subjectId, ctx.now());
  const owner = await companyOwner(ctx.em, subjectId);
  return owner !== null && owner.user_id === caller.userId && owner.partner_id === caller.partnerId;
}

/**
 * Whether the caller holds the founder or director role in the company now (the owner counts as founder). can_view
 * keeps it: its rule is "the caller owns the subject, or manages the document's company", a disjunction x-target
 * cannot state (the subject may be outside the company).
 */
async function manages(ctx: RpcContext, companyId: string): Promise<boolean> {
  const caller = requireCaller(ctx);
  if (isAdminSession(caller)) return true;
  const held = (await companyRoles(ctx.em, caller, companyId, ctx.now())) ?? [];
  return held.includes("founder") || held.includes("director");
}

function toResult(row: DocumentAudienceRow): DocumentAudienceResult {
  return {
    sid: row.sid,
    document_ref: row.document_ref,
    document_type: row.document_type,
    company_id: row.company_id,
    classification: [...row.classification],
    audience_computation: row.audience_computation,
    document_relevant_from: row.document_relevant_from.toISOString(),
    document_relevant_to: row.document_relevant_to?.toISOString() ?? null,
    as_of_epoch: row.as_of_epoch.toISOString(),
    supersedes: row.supersedes,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}

export const documentAudienceService: DocumentAudienceServiceHandlers<RpcContext> = {
  async canView(ctx, { subject_id, document_ref }) {
    if (subject_id.trim() === "" || document_ref.trim() === "") {
      throw audienceError("InvalidInput", "subject_id and document_ref must not be blank");
    }
    const rows = await audienceRowsByRef(ctx.em, document_ref);
    const current = currentAudience(rows);
    const allowed =
      isAdminSession(ctx.caller) ||
      (await ownsSubject(ctx, subject_id)) ||
      (current !== null && (await manages(ctx, current.company_id)));
    if (!allowed) throw audienceError.notFound("document");
    const decision = current
      ? await mayView(ctx.em, { documentType: current.document_type, documentRef: document_ref }, [subject_id])
      : null;
    return {
      subject_id,
      document_ref,
      can_view: decision?.canView ?? false,
      reason: decision?.reason ?? "no_audience_row",
      company_id: decision?.audience?.company_id ?? null,
      audience_sid: decision?.audience?.sid ?? null,
      role_sid: decision?.role?.sid ?? null,
      evaluated_at: ctx.now().toISOString(),
    };
  },
  /** The dispatcher found the document's audience rows and checked the director role in their company (x-target). */
  async listByDocument(ctx, { document_ref }) {
    return { items: (await audienceRowsByRef(ctx.em, document_ref)).map(toResult) };
  },
};
