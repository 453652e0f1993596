import type { BusinessDocumentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { deleteDocument } from "./business-document-service/delete.ts";
import { generateOfficialDocument } from "./business-document-service/official.ts";
import { getDocument, listDocuments } from "./business-document-service/read.ts";
import { uploadDocument } from "./business-document-service/upload.ts";

/**
 * BusinessDocumentService (issue 16): uploads (link validated, never fetched) in business-document-service/upload.ts,
 * official documents rendered from the registry in official.ts (src/domain/official-documents.ts), reads under the
 * DocumentAudience rule in read.ts (src/domain/document-visibility.ts), deletion of uploads in delete.ts. Every
 * document gets a DocumentAudience row. Codegen adds a stub here for each new method.
 */
export const businessDocumentService: BusinessDocumentServiceHandlers<RpcContext> = {
  uploadDocument,
  generateOfficialDocument,
  getDocument,
  listDocuments,
  deleteDocument,
};
