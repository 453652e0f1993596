import type { KycServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { eraseArtifact, getArtifactKey, submitArtifact, viewArtifact } from "./kyc-service/artifacts.ts";
import { getPersonalData } from "./kyc-service/personal-data.ts";
import { approve, reject } from "./kyc-service/review.ts";
import { checkStatus, startVerification } from "./kyc-service/sessions.ts";
import { handleKycproviderWebhook } from "./kyc-service/webhook.ts";

/**
 * KycService (issue 14): provider sessions (sessions.ts), the provider's signed verdict (webhook.ts), administrator
 * review (review.ts), verified personal data (personal-data.ts) and partner KYC artifacts (artifacts.ts). Rules live
 * in src/domain/kyc.ts and src/domain/kyc-artifacts.ts; codegen adds a stub here for each new method.
 */
export const kycService: KycServiceHandlers<RpcContext> = {
  startVerification,
  checkStatus,
  handleKycproviderWebhook,
  approve,
  reject,
  submitArtifact,
  viewArtifact,
  eraseArtifact,
  getPersonalData,
  getArtifactKey,
};
