import type { CreditServiceHandlers } from "../../../generated/handlers/index.ts";
import { topUpAmount } from "../../domain/payments.ts";
import { CREDIT_PRICING } from "../../domain/pricing.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { PaymentProviderError } from "../../integrations/payments/index.ts";
import { findOwnResident } from "../../repos/digital-residents.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { toMobilePayResult } from "../payment-service/common.ts";
import { startProviderPayment } from "../payment-service/start.ts";
import { creditError, refused } from "./common.ts";

type Handlers = CreditServiceHandlers<RpcContext>;

/**
 * A top-up payment of the caller's wallet with mobile money or the card provider (purpose `credit_topup`). Nothing
 * is credited here: the provider's confirmation credits the wallet once (src/services/payment-service/confirm.ts).
 */
export const initiateTopup: Handlers["initiateTopup"] = async (ctx, { user_id, amount, provider }) => {
  const cents = topUpAmount(amount);
  if (isRefusal(cents)) throw refused(cents);
  if (provider !== "mobilepay" && provider !== "cardpsp") {
    throw creditError("InvalidInput", "provider must be mobilepay or cardpsp", {
      field: "provider",
      known: CREDIT_PRICING.topup_providers,
    });
  }
  const resident = await findOwnResident(ctx.em, { userId: user_id, partnerId: null });
  try {
    const { row, checkoutUrl } = await startProviderPayment(ctx, {
      rail: provider,
      userId: user_id,
      entityType: "resident",
      entityId: resident?.resident_id ?? user_id,
      cents,
      currency: "USD",
      description: "Credit top-up",
      purpose: "credit_topup",
      plan: null,
      invoiceId: null,
    });
    return toMobilePayResult(row, checkoutUrl);
  } catch (err) {
    if (err instanceof PaymentProviderError) {
      throw creditError(err.kind === "unavailable" ? "ProviderUnavailable" : "ProviderRejected", err.message);
    }
    throw err;
  }
};
