import type { PaymentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

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
  async initiateRenewal(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.initiate_renewal");
  },
  async initiateCompanyRenewal(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.initiate_company_renewal");
  },
  async getSubscriptionStatus(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.get_subscription_status");
  },
  async connectPaymentReceiving(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.connect_payment_receiving");
  },
  async handleReceivingWebhook(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.handle_receiving_webhook");
  },
  async initiateInvoicePayment(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.initiate_invoice_payment");
  },
};
