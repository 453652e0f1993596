import type { McpApprovalServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** McpApprovalService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const mcpApprovalService: McpApprovalServiceHandlers<RpcContext> = {
  async listPending(_ctx, _params) {
    throw RpcError.notImplemented("mcpapprovalservice.list_pending");
  },
  async get(_ctx, _params) {
    throw RpcError.notImplemented("mcpapprovalservice.get");
  },
  async approve(_ctx, _params) {
    throw RpcError.notImplemented("mcpapprovalservice.approve");
  },
  async reject(_ctx, _params) {
    throw RpcError.notImplemented("mcpapprovalservice.reject");
  },
  async adminList(_ctx, _params) {
    throw RpcError.notImplemented("mcpapprovalservice.admin_list");
  },
  async adminGet(_ctx, _params) {
    throw RpcError.notImplemented("mcpapprovalservice.admin_get");
  },
  async adminApprove(_ctx, _params) {
    throw RpcError.notImplemented("mcpapprovalservice.admin_approve");
  },
  async adminReject(_ctx, _params) {
    throw RpcError.notImplemented("mcpapprovalservice.admin_reject");
  },
  async expireStale(_ctx, _params) {
    throw RpcError.notImplemented("mcpapprovalservice.expire_stale");
  },
};
