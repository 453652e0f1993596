import type { AdminRegistrationServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import {
  approveRegistration,
  rejectRegistration,
  requestAdditionalInfo,
  startReview,
} from "./shared/registration-requests/decisions.ts";
import {
  getRegistrationDetails,
  listRegistrationRequests,
  verifyRegistrationPrerequisites,
} from "./shared/registration-requests/review.ts";

/**
 * AdminRegistrationService: administrators review reseller registration requests (queue, details with linked KYC,
 * payment, contracts and artifacts, prerequisite check), start the review and decide them. Use cases under
 * src/services/shared/registration-requests/.
 */
export const adminRegistrationService: AdminRegistrationServiceHandlers<RpcContext> = {
  listRegistrationRequests,
  getRegistrationDetails,
  verifyRegistrationPrerequisites,
  approveRegistration,
  rejectRegistration,
  requestAdditionalInfo,
  startReview,
};
