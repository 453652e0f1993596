import type { VerificationServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import {
  createVerificationLink,
  deleteInactiveVerificationLinks,
  listVerificationLinks,
  revokeVerificationLink,
} from "./verification-service/links.ts";
import { verifyByToken, verifyCompany, verifyIndividual } from "./verification-service/lookups.ts";
import { publicVerifyUrlOf } from "./verification-service/public-url.ts";

/**
 * VerificationService: tiered public verification (src/domain/verification-tiers.ts) and the verification links
 * owners share; one file per use case under src/services/verification-service/.
 */
export const verificationService: VerificationServiceHandlers<RpcContext> = {
  verifyIndividual,
  verifyCompany,
  createVerificationLink,
  revokeVerificationLink,
  listVerificationLinks,
  deleteInactiveLinks: deleteInactiveVerificationLinks,
  verifyByToken,
  publicVerifyUrl: publicVerifyUrlOf,
};
