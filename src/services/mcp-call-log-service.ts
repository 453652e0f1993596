import type { McpCallLogServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** McpCallLogService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const mcpCallLogService: McpCallLogServiceHandlers<RpcContext> = {
  async list(_ctx, _params) {
    throw RpcError.notImplemented("mcpcalllogservice.list");
  },
  async adminList(_ctx, _params) {
    throw RpcError.notImplemented("mcpcalllogservice.admin_list");
  },
};
