import type { PricingServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** PricingService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const pricingService: PricingServiceHandlers<RpcContext> = {
  async calculateCompanyPricing(_ctx, _params) {
    throw RpcError.notImplemented("pricingservice.calculate_company_pricing");
  },
  async getAllPricing(_ctx, _params) {
    throw RpcError.notImplemented("pricingservice.get_all_pricing");
  },
  async getShareholderFeeRate(_ctx, _params) {
    throw RpcError.notImplemented("pricingservice.get_shareholder_fee_rate");
  },
};
