import type { DocumentAudienceServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** DocumentAudienceService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const documentAudienceService: DocumentAudienceServiceHandlers<RpcContext> = {
  async canView(_ctx, _params) {
    throw RpcError.notImplemented("documentaudienceservice.can_view");
  },
  async listByDocument(_ctx, _params) {
    throw RpcError.notImplemented("documentaudienceservice.list_by_document");
  },
};
