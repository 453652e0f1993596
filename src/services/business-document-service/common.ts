import type { BusinessDocumentRow } from "../../../generated/entities.ts";
import type { BusinessDocumentDetailResult, BusinessDocumentResult } from "../../../generated/types.ts";
import { AUDIENCE_RULE, CLASSIFICATION_BY_TYPE } from "../../domain/business-documents.ts";
import { uuidv7 } from "../../domain/ids.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { insertBusinessDocument } from "../../repos/business-documents.ts";
import { callerSubjects, type DocumentKey, liveAudience, writeAudience } from "../../repos/document-audiences.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/** Shared by the BusinessDocumentService use cases: errors, the caller's subjects, mappers. */

export const documentError = errorsFor("BusinessDocumentService", "BusinessDocumentError");

export function refused(r: Refusal<"InvalidInput" | "InvalidState">): Error {
  return documentError(r.refusal, r.message, r.details);
}

export const documentKey = (documentId: string): DocumentKey => ({
  documentType: "business_document",
  documentRef: documentId,
});

/** What an issuer or uploader decides of a new document; the id, company and stamps are the server's. */
export type NewDocument = Omit<BusinessDocumentRow, "sid" | "company_id" | "created_at" | "updated_at">;

/**
 * Inserts the company's document and its audience row (the type's classification, relevant from now) in the call's
 * transaction: the one way a business document comes into being, uploaded or official.
 */
export function recordDocument(
  ctx: RpcContext,
  companyId: string,
  fields: NewDocument,
  now: Date = ctx.now(),
): { row: BusinessDocumentRow; classification: readonly string[] } {
  const classification = CLASSIFICATION_BY_TYPE[fields.document_type];
  const row = insertBusinessDocument(ctx.em, {
    ...fields,
    sid: uuidv7(now),
    company_id: companyId,
    created_at: now,
    updated_at: now,
  });
  writeAudience(
    ctx.em,
    {
      documentRef: row.sid,
      documentType: "business_document",
      companyId,
      classification,
      rule: fields.is_official ? AUDIENCE_RULE.official : AUDIENCE_RULE.uploaded,
      relevantFrom: now,
      createdBy: requireCaller(ctx).userId,
    },
    now,
  );
  return { row, classification };
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
