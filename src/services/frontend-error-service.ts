import type { FrontendErrorServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** FrontendErrorService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const frontendErrorService: FrontendErrorServiceHandlers<RpcContext> = {
  async log(_ctx, _params) {
    throw RpcError.notImplemented("frontenderrorservice.log");
  },
};
