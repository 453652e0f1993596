import type { BusinessDocumentServiceHandlers } from "../../../generated/handlers/index.ts";
import { AUDIENCE_RULE } from "../../domain/business-documents.ts";
import { deleteUploadedDocument } from "../../repos/business-documents.ts";
import { closeAudience } from "../../repos/document-audiences.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { documentError, recordIfAdmin } from "./common.ts";

type Handlers = BusinessDocumentServiceHandlers<RpcContext>;

/**
 * delete_document: the dispatcher loaded the document, checked the director role in its company and that the company
 * operates (x-target). Uploaded documents only (official ones are RuleViolated OfficialDocument); the row goes and the
 * audience is closed at now by a superseding row. The delete is conditional on the row being non-official.
 */
export const deleteDocument: Handlers["deleteDocument"] = async (ctx) => {
  const row = ctx.target.row;
  if (row.is_official) throw documentError("OfficialDocument", "official documents are never deleted");
  if (!(await deleteUploadedDocument(ctx.em, row.sid))) throw documentError.notFound("document");
  const now = ctx.now();
  await closeAudience(ctx.em, "business_document", row.sid, now, AUDIENCE_RULE.deleted, requireCaller(ctx).userId);
  recordIfAdmin(ctx, "delete_business_document", row.company_id, { document_id: row.sid, name: row.name });
  return { sid: row.sid, deleted: true };
};
