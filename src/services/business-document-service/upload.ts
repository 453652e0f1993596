import type { BusinessDocumentServiceHandlers } from "../../../generated/handlers/index.ts";
import { uploadFields } from "../../domain/business-documents.ts";
import { isRefusal } from "../../domain/refusal.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { recordDocument, refused, toDocumentResult } from "./common.ts";

type Handlers = BusinessDocumentServiceHandlers<RpcContext>;

/**
 * upload_document: the dispatcher checked the director role, that the company operates (x-target) and that uploaded_by is a resident the caller owns or
 * acts for. The link is validated, never fetched; the audience row is the type's classification from now.
 */
export const uploadDocument: Handlers["uploadDocument"] = async (ctx, p) => {
  const fields = uploadFields(p);
  if (isRefusal(fields)) throw refused(fields);
  const { row, classification } = recordDocument(ctx, p.company_id, {
    document_type: p.document_type,
    name: fields.name,
    description: fields.description,
    file_url: fields.file_url,
    content: null,
    is_official: false,
    issued_date: null,
    expiry_date: null,
    uploaded_by: p.uploaded_by,
  });
  return toDocumentResult(row, classification);
};
