import type { ServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { adminRegistrationService } from "./admin-registration-service.ts";
import { adminService } from "./admin-service.ts";
import { apiKeyService } from "./api-key-service.ts";
import { authService } from "./auth-service.ts";
import { businessDocumentService } from "./business-document-service.ts";
import { companyRoleService } from "./company-role-service.ts";
import { companyService } from "./company-service.ts";
import { contractService } from "./contract-service.ts";
import { creditService } from "./credit-service.ts";
import { documentAudienceService } from "./document-audience-service.ts";
import { documentService } from "./document-service.ts";
import { entityDraftService } from "./entity-draft-service.ts";
import { expenseService } from "./expense-service.ts";
import { frontendErrorService } from "./frontend-error-service.ts";
import { governanceService } from "./governance-service.ts";
import { invoiceService } from "./invoice-service.ts";
import { keypairService } from "./keypair-service.ts";
import { kybService } from "./kyb-service.ts";
import { kycService } from "./kyc-service.ts";
import { mcpApprovalService } from "./mcp-approval-service.ts";
import { mcpCallLogService } from "./mcp-call-log-service.ts";
import { messageService } from "./message-service.ts";
import { partnerService } from "./partner-service.ts";
import { paymentService } from "./payment-service.ts";
import { pricingService } from "./pricing-service.ts";
import { proxyService } from "./proxy-service.ts";
import { publicKeyHistoryService } from "./public-key-history-service.ts";
import { registrationRequestService } from "./registration-request-service.ts";
import { registrationService } from "./registration-service.ts";
import { reportService } from "./report-service.ts";
import { residentService } from "./resident-service.ts";
import { shareholderService } from "./shareholder-service.ts";
import { taxService } from "./tax-service.ts";
import { treasuryOperationsService } from "./treasury-operations-service.ts";
import { treasuryService } from "./treasury-service.ts";
import { userAuditLogService } from "./user-audit-log-service.ts";
import { verificationService } from "./verification-service.ts";

/** Every service's hand-written handlers, as the generated registry binds them. */
export const services: ServiceHandlers<RpcContext> = {
  adminRegistrationService,
  adminService,
  apiKeyService,
  authService,
  businessDocumentService,
  companyRoleService,
  companyService,
  contractService,
  creditService,
  documentAudienceService,
  documentService,
  entityDraftService,
  expenseService,
  frontendErrorService,
  governanceService,
  invoiceService,
  keypairService,
  kybService,
  kycService,
  mcpApprovalService,
  mcpCallLogService,
  messageService,
  partnerService,
  paymentService,
  pricingService,
  proxyService,
  publicKeyHistoryService,
  registrationRequestService,
  registrationService,
  reportService,
  residentService,
  shareholderService,
  taxService,
  treasuryOperationsService,
  treasuryService,
  userAuditLogService,
  verificationService,
};
