import { randomBytes } from "node:crypto";
import {
  type CardProvider,
  type ChargeRequest,
  type Checkout,
  PaymentProviderError,
  type ReceivingAccount,
  type ReceivingRequest,
} from "./provider.ts";
import { sandboxStartRefusal } from "./sandbox-rules.ts";

/** The default card provider: offline, steered by the amount's cents (sandbox-rules.ts). */
export class SandboxCardProvider implements CardProvider {
  readonly name = "sandbox-cardpsp";

  async createCheckout(request: ChargeRequest): Promise<Checkout> {
    const refusal = sandboxStartRefusal(request.amountCents);
    if (refusal) throw new PaymentProviderError(refusal, "sandbox card provider");
    const orderId = `sbx-card-${randomBytes(12).toString("hex")}`;
    return { orderId, checkoutUrl: `https://sandbox.cardpsp.invalid/checkout/${orderId}` };
  }

  async chargeSavedCard(
    request: ChargeRequest & { paymentMethodId: string; customerId: string | null },
  ): Promise<Checkout> {
    const refusal = sandboxStartRefusal(request.amountCents);
    if (refusal) throw new PaymentProviderError(refusal, "sandbox card provider");
    // Off-session: no page; the verdict comes by webhook.
    return { orderId: `sbx-card-${randomBytes(12).toString("hex")}`, checkoutUrl: null };
  }

  async openConnectedAccount(_request: ReceivingRequest): Promise<ReceivingAccount> {
    const accountId = `sbx-acct-${randomBytes(10).toString("hex")}`;
    return { accountId, onboardingUrl: `https://sandbox.cardpsp.invalid/connect/${accountId}` };
  }
}
