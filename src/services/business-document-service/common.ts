import type { BusinessDocumentRow } from "../../../generated/entities.ts";
import type { BusinessDocumentDetailResult, BusinessDocumentResult } from "../../../generated/types.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { recordAdminAction } from "../../repos/admin-actions.ts";
import { companyOperableRefusal } from "../../repos/companies.ts";
import { callerSubjects, type DocumentKey, liveAudience } from "../../repos/document-audiences.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/** Shared by the BusinessDocumentService use cases: errors, the company guard, the caller's subjects, mappers. */

export const documentError = errorsFor("BusinessDocumentService", "BusinessDocumentError");

export function refused(r: Refusal<"InvalidInput" | "InvalidState">): Error {
  return documentError(r.refusal, r.message, r.details);
}

export const documentKey = (documentId: string): DocumentKey => ({
  documentType: "business_document",
  documentRef: documentId,
});

/** The company must exist (else NotFound) and be active (else InvalidState naming its status). */
export async function requireOperable(ctx: RpcContext, companyId: string): Promise<void> {
  const refusal = await companyOperableRefusal(ctx.em, companyId);
  if (refusal === "missing") throw documentError.notFound("company");
  if (refusal) throw refused(refusal);
}

/** The subjects the caller speaks for (residents owned or acted for, companies owned). */
export function subjectsOfCaller(ctx: RpcContext): Promise<string[]> {
  return callerSubjects(ctx.em, requireCaller(ctx), ctx.now());
}

export function toDocumentResult(row: BusinessDocumentRow, classification: readonly string[]): BusinessDocumentResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    document_type: row.document_type,
    name: row.name,
    description: row.description,
    file_url: row.file_url,
    is_official: row.is_official,
    issued_date: row.issued_date?.toISOString() ?? null,
    expiry_date: row.expiry_date?.toISOString() ?? null,
    uploaded_by: row.uploaded_by,
    classification: [...classification],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toDetailResult(
  row: BusinessDocumentRow,
  classification: readonly string[],
): BusinessDocumentDetailResult {
  return { ...toDocumentResult(row, classification), content: row.content };
}

/** The classification of the document's live audience row (empty when it has none). */
export async function liveClassification(ctx: RpcContext, documentId: string): Promise<readonly string[]> {
  return (await liveAudience(ctx.em, "business_document", documentId))?.classification ?? [];
}

/** An administrator's session acting on a company's documents leaves an AdminAction in the same transaction. */
export function recordIfAdmin(ctx: RpcContext, action: string, companyId: string, details: Record<string, unknown>) {
  if (isAdminSession(ctx.caller))
    recordAdminAction(ctx, { action, targetType: "company", targetId: companyId, details });
}
