import type { BusinessDocumentServiceHandlers } from "../../../generated/handlers/index.ts";
import { companyRoles, satisfiesCompanyRole } from "../../auth/access.ts";
import { AUDIENCE_RULE } from "../../domain/business-documents.ts";
import { deleteUploadedDocument, findBusinessDocument } from "../../repos/business-documents.ts";
import { closeAudience, mayView } from "../../repos/document-audiences.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { documentError, documentKey, recordIfAdmin, requireOperable, subjectsOfCaller } from "./common.ts";

type Handlers = BusinessDocumentServiceHandlers<RpcContext>;

/**
 * Whether the caller is a director (or founder, or the owner) of the company; when not, a member who may view the
 * document is Forbidden and anyone else gets NotFound. The dispatcher cannot check it: the company comes from the
 * document, not from a param.
 */
async function requireDirector(ctx: RpcContext, companyId: string, documentId: string): Promise<void> {
  const caller = requireCaller(ctx);
  if (isAdminSession(caller)) return;
  const held = await companyRoles(ctx.em, caller, companyId, ctx.now());
  if (held !== null && satisfiesCompanyRole(held, "director")) return;
  const sees =
    held !== null &&
    held.length > 0 &&
    (await mayView(ctx.em, documentKey(documentId), await subjectsOfCaller(ctx))).canView;
  if (sees) throw documentError("Forbidden", `needs the director role in ${companyId}`);
  throw documentError.notFound("document");
}

/**
 * delete_document: uploaded documents only (official ones are RuleViolated OfficialDocument); the row goes and the
 * audience is closed at now by a superseding row. The delete is conditional on the row being non-official.
 */
export const deleteDocument: Handlers["deleteDocument"] = async (ctx, p) => {
  const row = await findBusinessDocument(ctx.em, p.document_id);
  if (!row) throw documentError.notFound("document");
  await requireDirector(ctx, row.company_id, row.sid);
  if (row.is_official) throw documentError("OfficialDocument", "official documents are never deleted");
  await requireOperable(ctx, row.company_id);
  if (!(await deleteUploadedDocument(ctx.em, row.sid))) throw documentError.notFound("document");
  const now = ctx.now();
  await closeAudience(ctx.em, "business_document", row.sid, now, AUDIENCE_RULE.deleted, requireCaller(ctx).userId);
  recordIfAdmin(ctx, "delete_business_document", row.company_id, { document_id: row.sid, name: row.name });
  return { sid: row.sid, deleted: true };
};
