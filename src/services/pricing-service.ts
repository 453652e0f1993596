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

/** PricingService: the public price list and the registration price, computed from deployment configuration. */
export const pricingService: PricingServiceHandlers<RpcContext> = {
  async calculateCompanyPricing(_ctx, { company_type, shareholder_count, subscription_plan, early_bird }) {
    return priced(() => companyPricing(company_type, shareholder_count, subscription_plan, early_bird));
  },
  async getAllPricing() {
    return ALL_PRICING;
  },
  async getShareholderFeeRate(_ctx, { company_type, shareholder_count }) {
    return priced(() => ({
      company_type,
      shareholder_count,
      ...shareholderFee(company_type, shareholder_count),
      currency: COMPANY_PRICING_CURRENCY,
    }));
  },
};
