import type { TreasuryServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { accountHandlers as a } from "./shared/treasury/accounts.ts";
import { fundAccount } from "./shared/treasury/funding.ts";

/** TreasuryService (issue 15): accounts of companies and residents (src/services/shared/treasury/), sandbox funding. */
export const treasuryService: TreasuryServiceHandlers<RpcContext> = {
  listCompanyAccounts: a.listCompanyAccounts,
  getCompanyAccount: a.getCompanyAccount,
  listCompanyTransactions: a.listCompanyTransactions,
  createCompanyAccount: a.createCompanyAccount,
  updateCompanyAccount: a.updateCompanyAccount,
  listResidentAccounts: a.listResidentAccounts,
  getResidentAccount: a.getResidentAccount,
  listResidentTransactions: a.listResidentTransactions,
  createResidentAccount: a.createResidentAccount,
  updateResidentAccount: a.updateResidentAccount,
  fundAccount,
};
