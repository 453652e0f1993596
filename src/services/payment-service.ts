import type { PaymentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import * as subscriptions from "./subscriptions/handlers.ts";

/** PaymentService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const paymentService: PaymentServiceHandlers<RpcContext> = {
  async getPaymentWallet(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.get_payment_wallet");
  },
  async confirmPayment(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.confirm_payment");
  },
  async initiateMobilepay(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.initiate_mobilepay");
  },
  async handlePaymentWebhook(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.handle_payment_webhook");
  },
  async initiateRenewal(ctx, params) {
    return subscriptions.initiateRenewal(ctx, params);
  },
  async initiateCompanyRenewal(ctx, params) {
    return subscriptions.initiateCompanyRenewal(ctx, params);
  },
  async getSubscriptionStatus(ctx, params) {
    return subscriptions.getSubscriptionStatus(ctx, params);
  },
};
