import type { AdminRegistrationServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** AdminRegistrationService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const adminRegistrationService: AdminRegistrationServiceHandlers<RpcContext> = {
  async listRegistrationRequests(_ctx, _params) {
    throw RpcError.notImplemented("adminregistrationservice.list_registration_requests");
  },
  async getRegistrationDetails(_ctx, _params) {
    throw RpcError.notImplemented("adminregistrationservice.get_registration_details");
  },
  async verifyRegistrationPrerequisites(_ctx, _params) {
    throw RpcError.notImplemented("adminregistrationservice.verify_registration_prerequisites");
  },
  async approveRegistration(_ctx, _params) {
    throw RpcError.notImplemented("adminregistrationservice.approve_registration");
  },
  async rejectRegistration(_ctx, _params) {
    throw RpcError.notImplemented("adminregistrationservice.reject_registration");
  },
  async requestAdditionalInfo(_ctx, _params) {
    throw RpcError.notImplemented("adminregistrationservice.request_additional_info");
  },
};
