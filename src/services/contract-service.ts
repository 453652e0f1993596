import type { ContractServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import {
  archiveCompanyContract,
  createCompanyContract,
  getCompanyContract,
  listCompanyContracts,
  updateCompanyContract,
} from "./contract-service/company-contracts.ts";
import { getSignatures, signContract } from "./contract-service/signing.ts";
import {
  getRequiredContract,
  getRequiredContracts,
  getRequiredContractsMeta,
  getTemplate,
  listAllContracts,
  listTemplates,
} from "./contract-service/templates.ts";

/**
 * ContractService (issue 16): company contracts (contract-service/company-contracts.ts, expiry sweep in
 * expiry-sweep.ts), the template catalogue and registration contracts written from contracts/templates at start
 * (templates.ts), and signatures of registration contracts (signing.ts). Rules: src/domain/contracts.ts,
 * contract-templates.ts, contract-render.ts. Codegen adds a stub here for each new method.
 */
export const contractService: ContractServiceHandlers<RpcContext> = {
  listCompanyContracts,
  getCompanyContract,
  createCompanyContract,
  updateCompanyContract,
  archiveCompanyContract,
  listTemplates,
  getTemplate,
  getRequiredContracts,
  getRequiredContract,
  getRequiredContractsMeta,
  listAllContracts,
  signContract,
  getSignatures,
};
