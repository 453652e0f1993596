import type { ReportServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** ReportService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const reportService: ReportServiceHandlers<RpcContext> = {
  async generateBalanceSheet(_ctx, _params) {
    throw RpcError.notImplemented("reportservice.generate_balance_sheet");
  },
  async generateIncomeStatement(_ctx, _params) {
    throw RpcError.notImplemented("reportservice.generate_income_statement");
  },
  async generateCashFlow(_ctx, _params) {
    throw RpcError.notImplemented("reportservice.generate_cash_flow");
  },
  async generateTrialBalance(_ctx, _params) {
    throw RpcError.notImplemented("reportservice.generate_trial_balance");
  },
  async getReport(_ctx, _params) {
    throw RpcError.notImplemented("reportservice.get_report");
  },
  async listReports(_ctx, _params) {
    throw RpcError.notImplemented("reportservice.list_reports");
  },
};
