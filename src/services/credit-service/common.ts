import type { CreditBalanceRow, CreditTransactionRow } from "../../../generated/entities.ts";
import type { CreditBalanceResult, CreditTransactionResult } from "../../../generated/types.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { type Cents, fromCents } from "../../domain/money.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { creditWallet, type Debit, debitWallet } from "../../repos/credit-balances.ts";
import { insertLedgerRow, type LedgerRow } from "../../repos/credit-transactions.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";
import { type MoneyMover, moveOut } from "../shared/money-out.ts";
import { queueAutoTopUpAfterDebit } from "./auto-topup.ts";

export const creditError = errorsFor("CreditService", "CreditError");

type CreditVariant = Parameters<typeof creditError>[0];

/** A ledger rule's refusal as the declared CreditError variant. */
export function refused(r: Refusal<CreditVariant>): Error {
  return creditError(r.refusal, r.message, r.details);
}

export function toTransactionResult(row: LedgerRow | CreditTransactionRow): CreditTransactionResult {
  return {
    sid: row.sid,
    user_id: row.user_id,
    tx_type: row.tx_type,
    amount: row.amount,
    balance_after: row.balance_after,
    currency: "USD",
    description: row.description,
    reference_type: row.reference_type,
    reference_id: row.reference_id,
    external_call_id: row.external_call_id,
    status: row.status,
    created_at: row.created_at.toISOString(),
  };
}

export function toBalanceResult(row: CreditBalanceRow): CreditBalanceResult {
  return {
    user_id: row.user_id,
    balance: row.balance,
    currency: "USD",
    lifetime_earned: row.lifetime_earned,
    lifetime_spent: row.lifetime_spent,
    last_top_up_at: row.last_top_up_at ? row.last_top_up_at.toISOString() : null,
    auto_topup_enabled: row.auto_topup_enabled,
    auto_topup_amount: row.auto_topup_amount,
    auto_topup_threshold: row.auto_topup_threshold,
    has_payment_method: row.cardpsp_payment_method_id !== null,
    updated_at: row.updated_at.toISOString(),
  };
}

export interface Posting {
  userId: string;
  amount: Cents;
  description: string;
  referenceType: LedgerRow["reference_type"];
  referenceId: string | null;
  externalCallId?: string | null;
}

/** A completed ledger row for a posting, before its balance_after is known. */
export function ledgerRow(ctx: RpcContext, txType: LedgerRow["tx_type"], p: Posting, balanceAfter: Cents): LedgerRow {
  return ledgerRowAt(ctx.now(), txType, p, balanceAfter);
}

function ledgerRowAt(now: Date, txType: LedgerRow["tx_type"], p: Posting, balanceAfter: Cents): LedgerRow {
  return {
    sid: uuidv7(now),
    user_id: p.userId,
    tx_type: txType,
    amount: fromCents(p.amount),
    balance_after: fromCents(balanceAfter),
    currency: "USD",
    description: p.description,
    reference_type: p.referenceType,
    reference_id: p.referenceId,
    external_call_id: p.externalCallId ?? null,
    status: "completed",
    created_at: now,
  };
}

/** Credits a wallet and writes its ledger row, in the call's transaction. */
export async function postCredit(
  ctx: RpcContext,
  txType: "top_up" | "bonus" | "refund",
  p: Posting,
): Promise<CreditTransactionResult> {
  const balanceAfter = await creditWallet(ctx.em, p.userId, p.amount, ctx.now(), { topUp: txType === "top_up" });
  const row = ledgerRow(ctx, txType, p, balanceAfter);
  await insertLedgerRow(ctx.em, row);
  return toTransactionResult(row);
}

/**
 * A wallet deduction in the caller's transaction: the conditional update (never below zero) counted against the
 * calling agent key where money moves (src/services/shared/money-out.ts), the `deduction` row with its balance_after, then
 * the automatic top-up when the debit fell below the threshold. Null when the balance is short: nothing written.
 * Every debit of the wallet goes through here (deduct, renewals, wallet activation, company registration) but
 * debit_ai_query's, which claims its row first and moves out the same way.
 */
export async function postDebit(mover: MoneyMover, p: Posting): Promise<LedgerRow | null> {
  const { em } = mover;
  const now = mover.now();
  const debit = await moveOut(mover, { cents: p.amount, currency: "USD" }, () =>
    debitWallet(em, p.userId, p.amount, now),
  );
  if (debit === null) return null;
  const row = ledgerRowAt(now, "deduction", p, debit.balance);
  await insertLedgerRow(em, row);
  if (debit.topUpDue) await queueAutoTopUpAfterDebit(em, p.userId, debit.balance, now);
  return row;
}

/**
 * The automatic top-up for a debit made apart from postDebit (debit_ai_query claims its row first), in its
 * transaction after the balance moved: below the threshold, one top-up is queued (src/services/credit-service/auto-topup.ts; charged after commit by the sweep).
 */
export async function afterDebit(ctx: RpcContext, userId: string, debit: Debit): Promise<void> {
  if (debit.topUpDue) await queueAutoTopUpAfterDebit(ctx.em, userId, debit.balance, ctx.now());
}
