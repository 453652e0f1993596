import type { DocumentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** DocumentService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const documentService: DocumentServiceHandlers<RpcContext> = {
  async submitSigned(_ctx, _params) {
    throw RpcError.notImplemented("documentservice.submit_signed");
  },
  async verify(_ctx, _params) {
    throw RpcError.notImplemented("documentservice.verify");
  },
  async getKeyStatus(_ctx, _params) {
    throw RpcError.notImplemented("documentservice.get_key_status");
  },
};
