import type { UserAuditLogServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** UserAuditLogService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const userAuditLogService: UserAuditLogServiceHandlers<RpcContext> = {
  async log(_ctx, _params) {
    throw RpcError.notImplemented("userauditlogservice.log");
  },
  async listForSubject(_ctx, _params) {
    throw RpcError.notImplemented("userauditlogservice.list_for_subject");
  },
  async listForTarget(_ctx, _params) {
    throw RpcError.notImplemented("userauditlogservice.list_for_target");
  },
};
