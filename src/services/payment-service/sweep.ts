import type { PaymentRow } from "../../../generated/entities.ts";
import { toCents } from "../../domain/money.ts";
import { chainStatus } from "../../domain/payments.ts";
import { paymentProviders } from "../../integrations/payments/index.ts";
import { inJobTransaction } from "../../jobs/context.ts";
import { expireOverdue, openCryptoPayments, queuedAutoTopUps, updatePaymentIf } from "../../repos/payments.ts";
import type { Runtime } from "../../rpc/runtime.ts";
import { chargeQueuedTopUp } from "../credit-service/auto-topup.ts";
import { confirmOpenPayment } from "./confirm.ts";

/** Payments each sweep looks at per kind (the rest wait for the next run). */
const BATCH = 200;

export interface PaymentSweepReport {
  expired: number;
  confirming: number;
  confirmed: number;
  charged: number;
}

/** Names the payment sweep's transactions (request ids `job:payment-sweep:<uuid>`). */
const JOB = "payment-sweep";

/**
 * The chain watcher confirms a crypto payment in a job context naming confirm_payment (the purpose's effects,
 * activation included, take a call context), in one transaction per payment.
 */
function confirmFromChain(runtime: Runtime, payment: PaymentRow, changes: Parameters<typeof confirmOpenPayment>[2]) {
  const entry = runtime.registry.get("paymentservice.confirm_payment");
  if (!entry) throw new Error("paymentservice.confirm_payment not registered");
  return inJobTransaction(runtime, JOB, (ctx) => confirmOpenPayment(ctx, payment, changes), entry);
}

/**
 * One payment sweep (docs/decisions.md "Payments (issue 15)"): open payments past expires_at become `expired`; open
 * crypto payments take the sandbox chain's confirmation count (`confirming` below the required count, `confirmed`
 * with the purpose applied at it); queued automatic top-ups are charged to the saved card. Each step is idempotent:
 * a second run finds nothing more to do. Reads and the chain's answers come before any transaction; a queued top-up's
 * charge runs outside one on purpose (its claim commits before the card provider is called, src/services/credit-service/auto-topup.ts).
 */
export async function sweepPayments(runtime: Runtime, now: Date): Promise<PaymentSweepReport> {
  const em = runtime.orm.em.fork();
  const report: PaymentSweepReport = { expired: 0, confirming: 0, confirmed: 0, charged: 0 };
  report.expired = (await inJobTransaction(runtime, JOB, (ctx) => expireOverdue(ctx.em, now))).length;
  const chain = paymentProviders(runtime.config).chain;
  for (const payment of await openCryptoPayments(em, now, BATCH)) {
    const asset = payment.payment_type === "bitcoin" ? "BTC" : "ETH";
    const seen = await chain.observe({
      asset,
      address: payment.wallet_address ?? "",
      cryptoAmount: payment.crypto_amount ?? "0",
      amountCents: toCents(payment.amount),
      openedAt: payment.created_at,
      now,
    });
    const status = chainStatus(seen.confirmations, chain.requiredConfirmations(asset));
    const changes = {
      confirmation_count: seen.confirmations,
      transaction_hash: seen.transactionHash,
      sender_address: seen.senderAddress,
    };
    if (status === "confirmed") {
      if (await confirmFromChain(runtime, payment, changes)) report.confirmed += 1;
    } else if (status === "confirming" && seen.confirmations !== payment.confirmation_count) {
      report.confirming += await inJobTransaction(runtime, JOB, (ctx) =>
        updatePaymentIf(ctx.em, payment.sid, ["pending", "confirming"], { ...changes, status }, now),
      );
    }
  }
  for (const payment of await queuedAutoTopUps(em, now, BATCH)) {
    if ((await chargeQueuedTopUp(em, runtime.config, payment, now)) === "started") report.charged += 1;
  }
  return report;
}
