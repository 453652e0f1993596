import type { ApiKeyServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** ApiKeyService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const apiKeyService: ApiKeyServiceHandlers<RpcContext> = {
  async generate(_ctx, _params) {
    throw RpcError.notImplemented("apikeyservice.generate");
  },
  async generatePersonal(_ctx, _params) {
    throw RpcError.notImplemented("apikeyservice.generate_personal");
  },
  async listPersonal(_ctx, _params) {
    throw RpcError.notImplemented("apikeyservice.list_personal");
  },
  async revoke(_ctx, _params) {
    throw RpcError.notImplemented("apikeyservice.revoke");
  },
  async rotate(_ctx, _params) {
    throw RpcError.notImplemented("apikeyservice.rotate");
  },
  async updatePersonal(_ctx, _params) {
    throw RpcError.notImplemented("apikeyservice.update_personal");
  },
  async mintAssistantKey(_ctx, _params) {
    throw RpcError.notImplemented("apikeyservice.mint_assistant_key");
  },
};
