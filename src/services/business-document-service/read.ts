import type { BusinessDocumentServiceHandlers } from "../../../generated/handlers/index.ts";
import { findBusinessDocument, listCompanyDocuments } from "../../repos/business-documents.ts";
import { mayView, mayViewMany } from "../../repos/document-audiences.ts";
import { withAuditDetails } from "../../rpc/audit-marks.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { documentError, documentKey, subjectsOfCaller, toDetailResult, toDocumentResult } from "./common.ts";

type Handlers = BusinessDocumentServiceHandlers<RpcContext>;

/**
 * get_document: NotFound unless one of the caller's subjects may view the document (an administrator's session may
 * read any). The dispatcher writes the view_document audit row (allowed true here, false on the NotFound).
 */
export const getDocument: Handlers["getDocument"] = async (ctx, p) => {
  const row = await findBusinessDocument(ctx.em, p.document_id);
  if (!row) throw withAuditDetails(documentError.notFound("document"), { visibility: "no_document" });
  const decision = await mayView(
    ctx.em,
    documentKey(row.sid),
    isAdminSession(ctx.caller) ? [] : await subjectsOfCaller(ctx),
  );
  // The view_document row carries the decision (seed 001 Events 3): the audience row and the role that matched, or
  // why none did.
  const admin = isAdminSession(ctx.caller);
  const details = {
    visibility: admin ? "administrator" : decision.reason,
    audience_id: decision.audience?.sid ?? null,
    matched_role_id: decision.role?.sid ?? null,
    matched_subject_id: decision.role?.subject_id ?? null,
  };
  if (!decision.canView && !admin) throw withAuditDetails(documentError.notFound("document"), details);
  return withAuditDetails(toDetailResult(row, decision.audience?.classification ?? []), details);
};

/** list_documents: the dispatcher checked company:member; only the documents the caller may view, newest first. */
export const listDocuments: Handlers["listDocuments"] = async (ctx, p) => {
  const rows = await listCompanyDocuments(ctx.em, p.company_id, p.document_type);
  const admin = isAdminSession(ctx.caller);
  const decisions = await mayViewMany(
    ctx.em,
    "business_document",
    rows.map((r) => r.sid),
    admin ? [] : await subjectsOfCaller(ctx),
  );
  const items = rows.flatMap((row) => {
    const d = decisions.get(row.sid);
    if (!d || (!d.canView && !admin)) return [];
    return [toDocumentResult(row, d.audience?.classification ?? [])];
  });
  return { items };
};
