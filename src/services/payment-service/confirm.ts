import type { PaymentRow } from "../../../generated/entities.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { fromCents, toCents } from "../../domain/money.ts";
import { isOpen, isTopUp, OPEN_STATUSES } from "../../domain/payments.ts";
import { isRefusal } from "../../domain/refusal.ts";
import { subscriptionPaymentRefusal } from "../../domain/resident-status.ts";
import { companyRenewalRefusal, renewalPlanOfCode } from "../../domain/subscriptions.ts";
import { creditWallet } from "../../repos/credit-balances.ts";
import { findTopUpOfPayment, insertLedgerRow } from "../../repos/credit-transactions.ts";
import { findResident } from "../../repos/digital-residents.ts";
import { markInvoicePaid } from "../../repos/invoice-payments.ts";
import { type PaymentChanges, updatePaymentIf } from "../../repos/payments.ts";
import { lockCompany, lockResident } from "../../repos/subscriptions.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { applyActivation, judgeActivation } from "../registration-service/activation.ts";
import { extendCompany, extendResident } from "../shared/subscriptions/renew.ts";
import { invoiceMethodOf } from "./common.ts";

/** What a confirmation did: the row after it, whether the purpose took effect, and the ledger row it wrote. */
export interface Confirmation {
  row: PaymentRow;
  fulfilled: boolean;
  creditTransactionId: string | null;
}

/**
 * Confirms an open payment and applies its purpose, in the caller's transaction (the only way a payment becomes
 * `confirmed`: the provider's webhook, the chain watcher, or an administrator). The conditional move decides a
 * race: of a webhook and an administrator confirming at once, one moves the row and applies the purpose; the other
 * waits on the row lock, then moves nothing and gets null.
 */
export async function confirmOpenPayment(
  ctx: RpcContext,
  payment: PaymentRow,
  changes: PaymentChanges = {},
): Promise<Confirmation | null> {
  const now = ctx.now();
  const moved = await updatePaymentIf(
    ctx.em,
    payment.sid,
    OPEN_STATUSES,
    { ...changes, status: "confirmed", confirmed_at: now },
    now,
  );
  if (moved === 0) return null;
  const row: PaymentRow = { ...payment, ...changes, status: "confirmed", confirmed_at: now, updated_at: now };
  return { row, ...(await applyPurpose(ctx, row)) };
}

/**
 * The purpose's effect (docs/decisions.md "Payments (issue 15)"): a top-up credits the payer's wallet once (the
 * partial unique index top_up_payment holds it to one row per payment); a resident subscription activates the
 * pending resident when every other step is complete (else activation waits for the last step, which reads this
 * confirmed payment) and renews an active or expired one; an invoice payment marks the invoice paid; a company subscription extends the company's period.
 */
async function applyPurpose(
  ctx: RpcContext,
  row: PaymentRow,
): Promise<{ fulfilled: boolean; creditTransactionId: string | null }> {
  const now = ctx.now();
  if (isTopUp(row.payment_purpose)) {
    if (await findTopUpOfPayment(ctx.em, row.sid)) return { fulfilled: false, creditTransactionId: null };
    const cents = toCents(row.amount);
    const balanceAfter = await creditWallet(ctx.em, row.user_id, cents, now, { topUp: true });
    const sid = uuidv7(now);
    await insertLedgerRow(ctx.em, {
      sid,
      user_id: row.user_id,
      tx_type: "top_up",
      amount: fromCents(cents),
      balance_after: fromCents(balanceAfter),
      currency: "USD",
      description: row.auto_topup ? "Automatic credit top-up" : "Credit top-up",
      reference_type: "payment",
      reference_id: row.sid,
      external_call_id: null,
      status: "completed",
      created_at: now,
    });
    return { fulfilled: true, creditTransactionId: sid };
  }
  if (row.payment_purpose === "resident_subscription" && row.entity_type === "resident") {
    const resident = await findResident(ctx.em, row.entity_id);
    if (resident && resident.status !== "pending") {
      return { fulfilled: await applyResidentRenewal(ctx, row), creditTransactionId: null };
    }
    if (!resident) return { fulfilled: false, creditTransactionId: null };
    const decision = await judgeActivation(ctx, resident);
    if (isRefusal(decision) || !decision.activate) return { fulfilled: false, creditTransactionId: null };
    return { fulfilled: (await applyActivation(ctx, resident, decision)) !== null, creditTransactionId: null };
  }
  if (row.payment_purpose === "invoice_payment" && row.invoice_id !== null) {
    const paid = await markInvoicePaid(ctx.em, row.invoice_id, invoiceMethodOf(row), row.sid, now);
    return { fulfilled: paid, creditTransactionId: null };
  }
  if (row.payment_purpose === "company_subscription" && row.entity_type === "company") {
    return { fulfilled: await applyCompanySubscription(ctx, row), creditTransactionId: null };
  }
  return { fulfilled: false, creditTransactionId: null };
}

/**
 * A confirmed resident_subscription payment for a resident already activated renews it, as a wallet renewal does
 * (the row locked, from max(current end, now)), for the payment's plan or else the resident's own. Initiation
 * refused a suspended resident; one suspended since keeps its dates and the payment stays confirmed, unfulfilled.
 */
async function applyResidentRenewal(ctx: RpcContext, row: PaymentRow): Promise<boolean> {
  const resident = await lockResident(ctx.em, row.entity_id);
  const code = row.subscription_plan ?? resident?.subscription_plan ?? null;
  const plan = code === null ? null : renewalPlanOfCode(code);
  const now = ctx.now();
  if (plan === null || resident === null || subscriptionPaymentRefusal(resident, now) !== null) return false;
  await extendResident(ctx.em, resident, plan, now);
  return true;
}

/**
 * A confirmed company_subscription payment extends the company's period by its plan, as a renewal does (the row
 * locked, from max(current end, now), the CompanyMessage posted). Initiation refused companies that cannot renew;
 * one that stopped being renewable since (suspended, voided) keeps its dates and the payment stays confirmed,
 * unfulfilled (a refund is an administrator's matter, as for a second payment of a paid invoice).
 */
async function applyCompanySubscription(ctx: RpcContext, row: PaymentRow): Promise<boolean> {
  const plan = row.subscription_plan === null ? null : renewalPlanOfCode(row.subscription_plan);
  const company = plan === null ? null : await lockCompany(ctx.em, row.entity_id);
  if (plan === null || company === null || companyRenewalRefusal(company.status) !== null) return false;
  const rail = row.payment_type === "bank_transfer" ? "bank transfer" : row.payment_type;
  await extendCompany(ctx.em, company, plan, ctx.now(), {
    amount: row.amount,
    paidWith: `were paid by ${rail} (payment ${row.sid})`,
  });
  return true;
}

/** Moves an open payment to `failed` or `expired` (a provider verdict): whether it moved. */
export async function closeOpenPayment(
  ctx: RpcContext,
  payment: PaymentRow,
  status: "failed" | "expired",
): Promise<boolean> {
  if (!isOpen(payment.status)) return false;
  return (await updatePaymentIf(ctx.em, payment.sid, OPEN_STATUSES, { status }, ctx.now())) > 0;
}
