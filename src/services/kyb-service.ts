import type { KybServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** KybService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const kybService: KybServiceHandlers<RpcContext> = {
  async submit(_ctx, _params) {
    throw RpcError.notImplemented("kybservice.submit");
  },
  async get(_ctx, _params) {
    throw RpcError.notImplemented("kybservice.get");
  },
  async list(_ctx, _params) {
    throw RpcError.notImplemented("kybservice.list");
  },
  async startCheck(_ctx, _params) {
    throw RpcError.notImplemented("kybservice.start_check");
  },
  async approve(_ctx, _params) {
    throw RpcError.notImplemented("kybservice.approve");
  },
  async reject(_ctx, _params) {
    throw RpcError.notImplemented("kybservice.reject");
  },
  async handleKybWebhook(_ctx, _params) {
    throw RpcError.notImplemented("kybservice.handle_kyb_webhook");
  },
};
