import type { RegistrationServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { confirmKyc } from "./registration-service/confirm-kyc.ts";
import {
  activateIfComplete,
  checkKycComplete,
  checkPaymentComplete,
  getStatus,
  updateStatus,
} from "./registration-service/status.ts";

/**
 * RegistrationService (issue 14): the flow's status and checks, computed from the records at read time
 * (registration-service/facts.ts, status.ts), activation with the one rule of src/domain/activation.ts
 * (registration-service/activation.ts, shared with creditservice.activate_resident) and the internal KYC
 * confirmation (confirm-kyc.ts). Codegen adds a stub here for each new method.
 */
export const registrationService: RegistrationServiceHandlers<RpcContext> = {
  getStatus,
  updateStatus,
  checkPaymentComplete,
  checkKycComplete,
  activateIfComplete,
  confirmKyc,
};
