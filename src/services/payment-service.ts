import type { PaymentServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { initiateBankTransfer } from "./payment-service/bank-transfer.ts";
import { confirmPayment } from "./payment-service/confirm-payment.ts";
import { initiateInvoicePayment } from "./payment-service/invoice-payment.ts";
import { initiateMobilepay } from "./payment-service/mobilepay.ts";
import { connectPaymentReceiving, handleReceivingWebhook } from "./payment-service/receiving.ts";
import { getPaymentWallet } from "./payment-service/wallet.ts";
import { handlePaymentWebhook } from "./payment-service/webhook.ts";
import * as subscriptions from "./shared/subscriptions/handlers.ts";

/**
 * PaymentService: payments (src/services/payment-service/: crypto wallet, mobile money, card, administrator confirmation,
 * the providers' webhooks, payment receiving, invoice payments; the sweep in payments/sweep.ts) and renewals with the
 * subscription status (src/services/shared/subscriptions/). Codegen adds a stub for each new method and never rewrites code.
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
