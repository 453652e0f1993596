import type { EntityManager } from "@mikro-orm/postgresql";
import { uuidv7 } from "../../domain/ids.ts";
import { fromCents, toCents } from "../../domain/money.ts";
import { debitWallet, findWallet } from "../../repos/credit-balances.ts";
import { insertLedgerRow, type LedgerRow } from "../../repos/credit-transactions.ts";

/**
 * A renewal's payment: one `deduction` on the payer's wallet, as creditservice.deduct makes it (the conditional
 * update of src/repos/credit-balances.ts, never below zero, then the ledger row with balance_after), in the
 * transaction of the renewal it pays for.
 */

export interface RenewalDebit {
  userId: string;
  amount: number;
  description: string;
  /** `subscription` (the resident's id) or `company` (the company's id). */
  referenceType: "subscription" | "company";
  referenceId: string;
}

export interface Debited {
  transactionId: string;
  balanceAfter: number;
}

export type DebitOutcome = Debited | { short: true; balance: number };

export async function debitForRenewal(em: EntityManager, d: RenewalDebit, now: Date): Promise<DebitOutcome> {
  const amount = toCents(d.amount);
  const balanceAfter = await debitWallet(em, d.userId, amount, now);
  if (balanceAfter === null) return { short: true, balance: (await findWallet(em, d.userId))?.balance ?? 0 };
  const row: LedgerRow = {
    sid: uuidv7(now),
    user_id: d.userId,
    tx_type: "deduction",
    amount: fromCents(amount),
    balance_after: fromCents(balanceAfter),
    currency: "USD",
    description: d.description,
    reference_type: d.referenceType,
    reference_id: d.referenceId,
    external_call_id: null,
    status: "completed",
    created_at: now,
  };
  await insertLedgerRow(em, row);
  return { transactionId: row.sid, balanceAfter: row.balance_after };
}
