import type { BusinessDocumentServiceHandlers } from "../../../generated/handlers/index.ts";
import { AUDIENCE_RULE, CLASSIFICATION_BY_TYPE, uploadFields } from "../../domain/business-documents.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { insertBusinessDocument } from "../../repos/business-documents.ts";
import { writeAudience } from "../../repos/document-audiences.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { refused, requireOperable, toDocumentResult } from "./common.ts";

type Handlers = BusinessDocumentServiceHandlers<RpcContext>;

/**
 * upload_document: the dispatcher checked the director role and that uploaded_by is a resident the caller owns or
 * acts for. The link is validated, never fetched; the audience row is the type's classification from now.
 */
export const uploadDocument: Handlers["uploadDocument"] = async (ctx, p) => {
  const fields = uploadFields(p);
  if (isRefusal(fields)) throw refused(fields);
  await requireOperable(ctx, p.company_id);
  const now = ctx.now();
  const classification = CLASSIFICATION_BY_TYPE[p.document_type];
  const row = insertBusinessDocument(ctx.em, {
    sid: uuidv7(now),
    company_id: p.company_id,
    document_type: p.document_type,
    name: fields.name,
    description: fields.description,
    file_url: fields.file_url,
    content: null,
    is_official: false,
    issued_date: null,
    expiry_date: null,
    uploaded_by: p.uploaded_by,
    created_at: now,
    updated_at: now,
  });
  writeAudience(
    ctx.em,
    {
      documentRef: row.sid,
      documentType: "business_document",
      companyId: p.company_id,
      classification,
      rule: AUDIENCE_RULE.uploaded,
      relevantFrom: now,
      createdBy: requireCaller(ctx).userId,
    },
    now,
  );
  return toDocumentResult(row, classification);
};
