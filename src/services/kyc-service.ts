import type { KycServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** KycService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const kycService: KycServiceHandlers<RpcContext> = {
  async startVerification(_ctx, _params) {
    throw RpcError.notImplemented("kycservice.start_verification");
  },
  async checkStatus(_ctx, _params) {
    throw RpcError.notImplemented("kycservice.check_status");
  },
  async handleKycproviderWebhook(_ctx, _params) {
    throw RpcError.notImplemented("kycservice.handle_kycprovider_webhook");
  },
  async approve(_ctx, _params) {
    throw RpcError.notImplemented("kycservice.approve");
  },
  async reject(_ctx, _params) {
    throw RpcError.notImplemented("kycservice.reject");
  },
  async submitArtifact(_ctx, _params) {
    throw RpcError.notImplemented("kycservice.submit_artifact");
  },
  async viewArtifact(_ctx, _params) {
    throw RpcError.notImplemented("kycservice.view_artifact");
  },
  async eraseArtifact(_ctx, _params) {
    throw RpcError.notImplemented("kycservice.erase_artifact");
  },
  async getPersonalData(_ctx, _params) {
    throw RpcError.notImplemented("kycservice.get_personal_data");
  },
};
