import type { CreditServiceHandlers } from "../../generated/handlers/index.ts";
import { CREDIT_PRICING, RESIDENT_PLANS, residentPlanPrice } from "../domain/pricing.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

const PRICING_RESULT = { ...CREDIT_PRICING, resident_plans: RESIDENT_PLANS.map((p) => residentPlanPrice(p)) };

/** CreditService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const creditService: CreditServiceHandlers<RpcContext> = {
  async getBalance(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.get_balance");
  },
  async topUp(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.top_up");
  },
  async deduct(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.deduct");
  },
  async addBonus(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.add_bonus");
  },
  async refund(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.refund");
  },
  async listTransactions(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.list_transactions");
  },
  async getPricing() {
    return PRICING_RESULT;
  },
  async getOnboardingStatus(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.get_onboarding_status");
  },
  async initiateTopup(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.initiate_topup");
  },
  async setupAutoTopup(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.setup_auto_topup");
  },
  async disableAutoTopup(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.disable_auto_topup");
  },
  async activateResident(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.activate_resident");
  },
  async debitAiQuery(_ctx, _params) {
    throw RpcError.notImplemented("creditservice.debit_ai_query");
  },
};
