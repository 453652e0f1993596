import type { RegistrationRequestServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** RegistrationRequestService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const registrationRequestService: RegistrationRequestServiceHandlers<RpcContext> = {
  async submitRegistrationRequest(_ctx, _params) {
    throw RpcError.notImplemented("registrationrequestservice.submit_registration_request");
  },
  async getRegistrationRequestStatus(_ctx, _params) {
    throw RpcError.notImplemented("registrationrequestservice.get_registration_request_status");
  },
  async listRegistrationRequests(_ctx, _params) {
    throw RpcError.notImplemented("registrationrequestservice.list_registration_requests");
  },
  async updateRegistrationRequest(_ctx, _params) {
    throw RpcError.notImplemented("registrationrequestservice.update_registration_request");
  },
};
