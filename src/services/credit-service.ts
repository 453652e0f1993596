import type { CreditServiceHandlers } from "../../generated/handlers/index.ts";
import { CREDIT_PRICING, RESIDENT_PLANS, residentPlanPrice } from "../domain/pricing.ts";
import type { RpcContext } from "../rpc/context.ts";
import { activateResident } from "./credit-service/activate-resident.ts";
import { addBonus, refund } from "./credit-service/admin-credits.ts";
import { disableAutoTopup, setupAutoTopup } from "./credit-service/auto-topup-settings.ts";
import { getBalance, listTransactions } from "./credit-service/balance.ts";
import { debitAiQuery } from "./credit-service/debit-ai-query.ts";
import { deduct } from "./credit-service/deduct.ts";
import { initiateTopup } from "./credit-service/initiate-topup.ts";
import { getOnboardingStatus } from "./credit-service/onboarding.ts";
import { topUp } from "./credit-service/top-up.ts";

const PRICING_RESULT = { ...CREDIT_PRICING, resident_plans: RESIDENT_PLANS.map((p) => residentPlanPrice(p)) };

/**
 * CreditService (issue 15): the wallet ledger. Reads in credit-service/balance.ts, the caller's debit in deduct.ts,
 * administrator credits in admin-credits.ts, top-ups from confirmed payments in top-up.ts, AI query billing in
 * debit-ai-query.ts; rules in src/domain/ledger.ts. Codegen adds a stub here for each new method.
 */
export const creditService: CreditServiceHandlers<RpcContext> = {
  getBalance,
  topUp,
  deduct,
  addBonus,
  refund,
  listTransactions,
  async getPricing() {
    return PRICING_RESULT;
  },
  getOnboardingStatus,
  initiateTopup,
  setupAutoTopup,
  disableAutoTopup,
  activateResident,
  debitAiQuery,
};
