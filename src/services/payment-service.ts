import type { PaymentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import { initiateBankTransfer } from "./payments/bank-transfer.ts";
import { confirmPayment } from "./payments/confirm-payment.ts";
import { initiateInvoicePayment } from "./payments/invoice-payment.ts";
import { initiateMobilepay } from "./payments/mobilepay.ts";
import { connectPaymentReceiving, handleReceivingWebhook } from "./payments/receiving.ts";
import { getPaymentWallet } from "./payments/wallet.ts";
import { handlePaymentWebhook } from "./payments/webhook.ts";

/**
 * PaymentService: payments (src/services/payments/: crypto wallet, mobile money, card, administrator confirmation,
 * the providers' webhooks, payment receiving, invoice payments; the sweep in payments/sweep.ts). Renewals and the
 * subscription status are written apart. Codegen adds a stub for each new method and never rewrites code.
 */
export const paymentService: PaymentServiceHandlers<RpcContext> = {
  getPaymentWallet,
  confirmPayment,
  initiateMobilepay,
  handlePaymentWebhook,
  async initiateRenewal(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.initiate_renewal");
  },
  async initiateCompanyRenewal(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.initiate_company_renewal");
  },
  async getSubscriptionStatus(_ctx, _params) {
    throw RpcError.notImplemented("paymentservice.get_subscription_status");
  },
  connectPaymentReceiving,
  handleReceivingWebhook,
  initiateInvoicePayment,
  initiateBankTransfer,
};
