import { toCents } from "../../../domain/money.ts";
import { findWallet } from "../../../repos/credit-balances.ts";
import { postDebit } from "../../credit-service/common.ts";
import type { MoneyMover } from "../money-out.ts";

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

export async function debitForRenewal(mover: MoneyMover, d: RenewalDebit): Promise<DebitOutcome> {
  const row = await postDebit(mover, {
    userId: d.userId,
    amount: toCents(d.amount),
    description: d.description,
    referenceType: d.referenceType,
    referenceId: d.referenceId,
  });
  if (!row) return { short: true, balance: (await findWallet(mover.em, d.userId))?.balance ?? 0 };
  return { transactionId: row.sid, balanceAfter: row.balance_after };
}
