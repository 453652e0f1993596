import type { PartnerServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** PartnerService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const partnerService: PartnerServiceHandlers<RpcContext> = {
  async createPartner(_ctx, _params) {
    throw RpcError.notImplemented("partnerservice.create_partner");
  },
  async listPartners(_ctx, _params) {
    throw RpcError.notImplemented("partnerservice.list_partners");
  },
  async deactivatePartner(_ctx, _params) {
    throw RpcError.notImplemented("partnerservice.deactivate_partner");
  },
  async rotatePartnerCredentials(_ctx, _params) {
    throw RpcError.notImplemented("partnerservice.rotate_partner_credentials");
  },
  async updatePartner(_ctx, _params) {
    throw RpcError.notImplemented("partnerservice.update_partner");
  },
};
