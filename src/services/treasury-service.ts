import type { TreasuryServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** TreasuryService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const treasuryService: TreasuryServiceHandlers<RpcContext> = {
  async listCompanyAccounts(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.list_company_accounts");
  },
  async getCompanyAccount(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.get_company_account");
  },
  async listCompanyTransactions(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.list_company_transactions");
  },
  async createCompanyAccount(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.create_company_account");
  },
  async updateCompanyAccount(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.update_company_account");
  },
  async listResidentAccounts(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.list_resident_accounts");
  },
  async getResidentAccount(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.get_resident_account");
  },
  async listResidentTransactions(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.list_resident_transactions");
  },
  async createResidentAccount(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.create_resident_account");
  },
  async updateResidentAccount(_ctx, _params) {
    throw RpcError.notImplemented("treasuryservice.update_resident_account");
  },
};
