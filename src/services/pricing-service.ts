import type { PricingServiceHandlers } from "../../generated/handlers/index.ts";
import {
  allPricing,
  COMPANY_PRICING_CURRENCY,
  companyPricing,
  PricingInputError,
  shareholderFee,
} from "../domain/company-pricing.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

const pricingError = errorsFor("PricingService", "PricingError");

const ALL_PRICING = allPricing();

function priced<T>(compute: () => T): T {
  try {
    return compute();
  } catch (err) {
    if (err instanceof PricingInputError) throw pricingError("InvalidInput", err.message);
    throw err;
  }
}

/**
 * PricingService: the public price list and the registration price, computed from deployment configuration. The
 * handlers wait for nothing, so they answer values (the dispatcher then answers without a promise).
 */
export const pricingService: PricingServiceHandlers<RpcContext> = {
  calculateCompanyPricing(_ctx, { company_type, shareholder_count, subscription_plan, early_bird }) {
    return priced(() => companyPricing(company_type, shareholder_count, subscription_plan, early_bird));
  },
  getAllPricing() {
    return ALL_PRICING;
  },
  getShareholderFeeRate(_ctx, { company_type, shareholder_count }) {
    return priced(() => ({
      company_type,
      shareholder_count,
      ...shareholderFee(company_type, shareholder_count),
      currency: COMPANY_PRICING_CURRENCY,
    }));
  },
};
