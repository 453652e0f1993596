import { randomBytes } from "node:crypto";
import {
  type ChargeRequest,
  type Checkout,
  type MobileMoneyProvider,
  PaymentProviderError,
  type ReceivingAccount,
  type ReceivingRequest,
} from "./provider.ts";
import { sandboxStartRefusal } from "./sandbox-rules.ts";

/** The default mobile-money provider: offline, steered by the amount's cents (sandbox-rules.ts). */
export class SandboxMobileMoney implements MobileMoneyProvider {
  readonly name = "sandbox-mobilepay";

  async createOrder(request: ChargeRequest): Promise<Checkout> {
    const refusal = sandboxStartRefusal(request.amountCents);
    if (refusal) throw new PaymentProviderError(refusal, "sandbox mobile money");
    // Confirmed on the phone: no checkout page.
    return { orderId: `sbx-mp-${randomBytes(12).toString("hex")}`, checkoutUrl: null };
  }

  async openMerchant(_request: ReceivingRequest): Promise<ReceivingAccount> {
    const accountId = `sbx-mpm-${randomBytes(10).toString("hex")}`;
    return { accountId, onboardingUrl: `https://sandbox.mobilepay.invalid/merchants/${accountId}` };
  }
}
