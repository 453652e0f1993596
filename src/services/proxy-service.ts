import type { ProxyServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** ProxyService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const proxyService: ProxyServiceHandlers<RpcContext> = {
  async createProxy(_ctx, _params) {
    throw RpcError.notImplemented("proxyservice.create_proxy");
  },
  async revokeProxy(_ctx, _params) {
    throw RpcError.notImplemented("proxyservice.revoke_proxy");
  },
  async listProxies(_ctx, _params) {
    throw RpcError.notImplemented("proxyservice.list_proxies");
  },
};
