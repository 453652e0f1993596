import type { BusinessDocumentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** BusinessDocumentService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const businessDocumentService: BusinessDocumentServiceHandlers<RpcContext> = {
  async uploadDocument(_ctx, _params) {
    throw RpcError.notImplemented("businessdocumentservice.upload_document");
  },
  async generateOfficialDocument(_ctx, _params) {
    throw RpcError.notImplemented("businessdocumentservice.generate_official_document");
  },
  async getDocument(_ctx, _params) {
    throw RpcError.notImplemented("businessdocumentservice.get_document");
  },
  async listDocuments(_ctx, _params) {
    throw RpcError.notImplemented("businessdocumentservice.list_documents");
  },
  async deleteDocument(_ctx, _params) {
    throw RpcError.notImplemented("businessdocumentservice.delete_document");
  },
};
