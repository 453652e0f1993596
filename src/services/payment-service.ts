import type { PaymentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { initiateBankTransfer } from "./payments/bank-transfer.ts";
import { confirmPayment } from "./payments/confirm-payment.ts";
import { initiateInvoicePayment } from "./payments/invoice-payment.ts";
import { initiateMobilepay } from "./payments/mobilepay.ts";
import { connectPaymentReceiving, handleReceivingWebhook } from "./payments/receiving.ts";
import { getPaymentWallet } from "./payments/wallet.ts";
import { handlePaymentWebhook } from "./payments/webhook.ts";
import * as subscriptions from "./subscriptions/handlers.ts";

/**
 * PaymentService: payments (src/services/payments/: crypto wallet, mobile money, card, administrator confirmation,
 * the providers' webhooks, payment receiving, invoice payments; the sweep in payments/sweep.ts) and renewals with the
 * subscription status (src/services/subscriptions/). Codegen adds a stub for each new method and never rewrites code.
 */
export const paymentService: PaymentServiceHandlers<RpcContext> = {
  getPaymentWallet,
  confirmPayment,
  initiateMobilepay,
  handlePaymentWebhook,
  initiateRenewal: subscriptions.initiateRenewal,
  initiateCompanyRenewal: subscriptions.initiateCompanyRenewal,
  getSubscriptionStatus: subscriptions.getSubscriptionStatus,
  connectPaymentReceiving,
  handleReceivingWebhook,
  initiateInvoicePayment,
  initiateBankTransfer,
};
