import type { RegistrationRequestServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import {
  getRegistrationRequestStatus,
  listRegistrationRequests,
  submitRegistrationRequest,
  updateRegistrationRequest,
} from "./shared/registration-requests/partner.ts";

/**
 * RegistrationRequestService: partners submit, follow and complete their clients' registration requests through a
 * reseller key; the administrator side is AdminRegistrationService. One file per use case under
 * src/services/shared/registration-requests/.
 */
export const registrationRequestService: RegistrationRequestServiceHandlers<RpcContext> = {
  submitRegistrationRequest,
  getRegistrationRequestStatus,
  listRegistrationRequests,
  updateRegistrationRequest,
};
