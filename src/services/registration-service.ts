import type { RegistrationServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** RegistrationService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const registrationService: RegistrationServiceHandlers<RpcContext> = {
  async getStatus(_ctx, _params) {
    throw RpcError.notImplemented("registrationservice.get_status");
  },
  async updateStatus(_ctx, _params) {
    throw RpcError.notImplemented("registrationservice.update_status");
  },
  async checkPaymentComplete(_ctx, _params) {
    throw RpcError.notImplemented("registrationservice.check_payment_complete");
  },
  async checkKycComplete(_ctx, _params) {
    throw RpcError.notImplemented("registrationservice.check_kyc_complete");
  },
  async activateIfComplete(_ctx, _params) {
    throw RpcError.notImplemented("registrationservice.activate_if_complete");
  },
  async confirmKyc(_ctx, _params) {
    throw RpcError.notImplemented("registrationservice.confirm_kyc");
  },
};
