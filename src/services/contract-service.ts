import type { ContractServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** ContractService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const contractService: ContractServiceHandlers<RpcContext> = {
  async listCompanyContracts(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.list_company_contracts");
  },
  async getCompanyContract(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.get_company_contract");
  },
  async createCompanyContract(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.create_company_contract");
  },
  async updateCompanyContract(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.update_company_contract");
  },
  async archiveCompanyContract(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.archive_company_contract");
  },
  async listTemplates(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.list_templates");
  },
  async getTemplate(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.get_template");
  },
  async getRequiredContracts(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.get_required_contracts");
  },
  async getRequiredContract(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.get_required_contract");
  },
  async getRequiredContractsMeta(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.get_required_contracts_meta");
  },
  async listAllContracts(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.list_all_contracts");
  },
  async signContract(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.sign_contract");
  },
  async getSignatures(_ctx, _params) {
    throw RpcError.notImplemented("contractservice.get_signatures");
  },
};
