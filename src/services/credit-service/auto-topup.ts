import type { EntityManager } from "@mikro-orm/postgresql";
import type { PaymentRow } from "../../../generated/entities.ts";
import type { Config } from "../../config.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { type Cents, fromCents, toCents } from "../../domain/money.ts";
import { expiresAt } from "../../domain/payments.ts";
import { PaymentProviderError, paymentProviders } from "../../integrations/payments/index.ts";
import { findWallet } from "../../repos/credit-balances.ts";
import { claimQueuedTopUp, insertAutoTopUp, queueAutoTopUpIfDue, updatePaymentIf } from "../../repos/payments.ts";

/**
 * Automatic top-up (issue 15, docs/decisions.md "Payments (issue 15)"). A debit that leaves the balance below the
 * wallet's threshold queues one pending card Payment (auto_topup) in the debit's own transaction; the partial unique
 * index open_auto_topup keeps it to one open per user, also between concurrent debits. The card is charged after the
 * debit committed, by the payment sweep (never inside the debit's row lock), and the wallet is credited when the
 * provider's webhook confirms the payment, once.
 */

export type AutoTopUpOutcome = "started" | "pending" | "disabled" | "not_needed" | "failed";

interface WalletSettings {
  auto_topup_enabled: boolean;
  auto_topup_amount: number;
  auto_topup_threshold: number;
  cardpsp_payment_method_id: string | null;
}

/** Why no top-up is queued for this wallet at this balance, or null when one should be. */
export function autoTopUpNeed(
  wallet: WalletSettings | null,
  balance: Cents,
  needed: Cents = 0,
): "disabled" | "not_needed" | null {
  if (!wallet?.auto_topup_enabled || wallet.cardpsp_payment_method_id === null) return "disabled";
  if (toCents(wallet.auto_topup_amount) <= 0) return "disabled";
  if (balance >= Math.max(toCents(wallet.auto_topup_threshold), needed)) return "not_needed";
  return null;
}

async function queue(em: EntityManager, userId: string, amount: number, now: Date): Promise<PaymentRow | null> {
  return insertAutoTopUp(
    em,
    {
      sid: uuidv7(now),
      user_id: userId,
      entity_id: userId,
      entity_type: "resident",
      payment_type: "cardpsp",
      amount,
      currency: "USD",
      crypto_amount: null,
      exchange_rate: null,
      wallet_address: null,
      sender_address: null,
      transaction_hash: null,
      confirmation_count: null,
      external_id: "",
      mobilepay_order_id: null,
      payment_purpose: "credit_topup",
      invoice_id: null,
      subscription_plan: null,
      auto_renewal: false,
      auto_topup: true,
      status: "pending",
      expires_at: expiresAt(now, "auto_topup"),
      confirmed_at: null,
    },
    now,
  );
}

/**
 * The debit's hook (in its transaction, after the balance moved): queues the top-up when the balance after is below
 * the threshold, in one statement (autoTopUpNeed's rule in SQL). No provider call here.
 */
export async function queueAutoTopUpAfterDebit(
  em: EntityManager,
  userId: string,
  balanceAfter: Cents,
  now: Date,
): Promise<void> {
  await queueAutoTopUpIfDue(
    em,
    uuidv7(now),
    userId,
    fromCents(balanceAfter).toFixed(2),
    expiresAt(now, "auto_topup"),
    now,
  );
}

/**
 * Charges a queued top-up to the saved card: records the provider's payment id (the webhook names it), or fails the
 * payment when the provider refuses. The payment is claimed first (external_id `charging:<sid>`), so two sweeps never
 * charge it twice. Answers "started" or "failed" ("pending" when another sweep claimed it first).
 */
export async function chargeQueuedTopUp(
  em: EntityManager,
  config: Config,
  payment: PaymentRow,
  now: Date,
): Promise<AutoTopUpOutcome> {
  if (!(await claimQueuedTopUp(em, payment.sid, `charging:${payment.sid}`, now))) return "pending";
  const wallet = await findWallet(em, payment.user_id);
  const methodId = wallet?.cardpsp_payment_method_id ?? null;
  if (methodId === null) {
    await updatePaymentIf(em, payment.sid, ["pending"], { status: "failed" }, now);
    return "failed";
  }
  try {
    const checkout = await paymentProviders(config).card.chargeSavedCard({
      paymentId: payment.sid,
      amountCents: toCents(payment.amount),
      currency: payment.currency,
      description: "Automatic credit top-up",
      now,
      paymentMethodId: methodId,
      customerId: wallet?.cardpsp_customer_id ?? null,
    });
    await updatePaymentIf(em, payment.sid, ["pending"], { external_id: checkout.orderId }, now);
    return "started";
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    await updatePaymentIf(em, payment.sid, ["pending"], { status: "failed" }, now);
    return "failed";
  }
}

/**
 * For the renewal sweep when a renewal finds too little money: starts one automatic top-up now (queued and
 * charged) unless it is off or without a card ("disabled"), the balance already covers the threshold and `needed`
 * cents ("not_needed"), or one is open ("pending"). Call it outside any wallet row lock: it calls the card provider.
 */
export async function startAutoTopUp(
  em: EntityManager,
  config: Config,
  userId: string,
  now: Date,
  needed: Cents = 0,
): Promise<AutoTopUpOutcome> {
  const wallet = await findWallet(em, userId);
  const skip = autoTopUpNeed(wallet, wallet ? toCents(wallet.balance) : 0, needed);
  if (skip !== null || !wallet) return skip ?? "disabled";
  const queued = await em.transactional((tx) => queue(tx, userId, wallet.auto_topup_amount, now));
  if (!queued) return "pending";
  return chargeQueuedTopUp(em, config, queued, now);
}
