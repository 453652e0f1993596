import type { ResidentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** ResidentService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const residentService: ResidentServiceHandlers<RpcContext> = {
  async list(_ctx, _params) {
    throw RpcError.notImplemented("residentservice.list");
  },
  async create(_ctx, _params) {
    throw RpcError.notImplemented("residentservice.create");
  },
  async get(_ctx, _params) {
    throw RpcError.notImplemented("residentservice.get");
  },
  async update(_ctx, _params) {
    throw RpcError.notImplemented("residentservice.update");
  },
  async delete(_ctx, _params) {
    throw RpcError.notImplemented("residentservice.delete");
  },
  async updateSubscription(_ctx, _params) {
    throw RpcError.notImplemented("residentservice.update_subscription");
  },
  async getCard(_ctx, _params) {
    throw RpcError.notImplemented("residentservice.get_card");
  },
  async setAnonymity(_ctx, _params) {
    throw RpcError.notImplemented("residentservice.set_anonymity");
  },
};
