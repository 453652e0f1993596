import type { PublicKeyHistoryServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** PublicKeyHistoryService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const publicKeyHistoryService: PublicKeyHistoryServiceHandlers<RpcContext> = {
  async getHistory(_ctx, _params) {
    throw RpcError.notImplemented("publickeyhistoryservice.get_history");
  },
  async getByVersion(_ctx, _params) {
    throw RpcError.notImplemented("publickeyhistoryservice.get_by_version");
  },
  async verifyWithHistory(_ctx, _params) {
    throw RpcError.notImplemented("publickeyhistoryservice.verify_with_history");
  },
};
