import { type Cents, isValidAmount, toCents } from "./money.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Credit ledger rules (seed 000 "Finance", issue 15). Amounts are positive USD with at most two decimals; the
 * ledger row's tx_type gives the direction. Pure: the services load, these decide, the repositories apply.
 */

/** What a ledger row may reference (CreditTransaction.reference_type). */
export const REFERENCE_TYPES = ["payment", "kyc", "subscription", "company", "admin", "ai_call"] as const;
export type ReferenceType = (typeof REFERENCE_TYPES)[number];

/** Payment purposes that fund a wallet top-up (the record says `credit_topup`, initiate_topup `credit_top_up`). */
export const TOP_UP_PURPOSES: readonly string[] = ["credit_topup", "credit_top_up"];

/** An amount a ledger row may carry, as cents: positive, at most two decimals, exact. */
export function ledgerAmount(amount: number): Cents | Refusal<"InvalidAmount"> {
  if (!isValidAmount(amount)) {
    return refuse("InvalidAmount", "amount must be positive with at most two decimals", { amount });
  }
  return toCents(amount);
}

export function referenceType(value: string): ReferenceType | Refusal<"InvalidInput"> {
  const known = REFERENCE_TYPES.find((t) => t === value);
  return known ?? refuse("InvalidInput", "unknown reference_type", { field: "reference_type", known: REFERENCE_TYPES });
}

/** A debit of `amount` cents from `balance` cents: the balance after, never below zero. */
export function debitOutcome(balance: Cents, amount: Cents): Cents | Refusal<"InsufficientFunds"> {
  if (balance < amount) {
    return refuse("InsufficientFunds", "the balance is below the amount", {
      balance: balance / 100,
      amount: amount / 100,
    });
  }
  return balance - amount;
}

/** A refund never brings what was refunded for a reference above what was deducted for it. */
export function refundRefusal(
  deducted: Cents,
  refunded: Cents,
  amount: Cents,
): Refusal<"NotFound" | "InvalidAmount"> | null {
  if (deducted === 0) return refuse("NotFound", "no deduction for this reference");
  if (refunded + amount > deducted) {
    return refuse("InvalidAmount", "the refund exceeds what was deducted for this reference", {
      deducted: deducted / 100,
      refunded: refunded / 100,
    });
  }
  return null;
}

export interface TopUpPayment {
  user_id: string;
  amount: number;
  payment_purpose: string;
  status: string;
}

/** A top-up is funded by a confirmed credit top-up payment of that user, for exactly its amount. */
export function topUpRefusal(
  payment: TopUpPayment,
  userId: string,
  amount: Cents,
): Refusal<"InvalidInput" | "InvalidState" | "InvalidAmount"> | null {
  if (payment.user_id !== userId) return refuse("InvalidInput", "the payment belongs to another user");
  if (!TOP_UP_PURPOSES.includes(payment.payment_purpose)) {
    return refuse("InvalidInput", "the payment is not a credit top-up");
  }
  if (payment.status !== "confirmed") {
    return refuse("InvalidState", "the payment is not confirmed", { status: payment.status });
  }
  if (toCents(payment.amount) !== amount || amount <= 0) {
    return refuse("InvalidAmount", "the amount differs from the payment's", { payment_amount: payment.amount });
  }
  return null;
}

export interface AiDebitRow {
  user_id: string;
  amount: number;
}

/** A repeated external_call_id answers the first row only when it names the same user and amount. */
export function aiRepeatRefusal(first: AiDebitRow, userId: string, amount: Cents): Refusal<"AlreadyExists"> | null {
  if (first.user_id === userId && toCents(first.amount) === amount) return null;
  return refuse("AlreadyExists", "this external_call_id was billed with another user or amount");
}

/** list_transactions paging: page from 1, page_size 0 (meaning 20) to 100. */
export function pagingRefusal(page: number, pageSize: number): Refusal<"InvalidInput"> | null {
  if (page < 1) return refuse("InvalidInput", "page starts at 1", { field: "page" });
  if (pageSize < 0 || pageSize > 100)
    return refuse("InvalidInput", "page_size is 1 to 100 (0 means 20)", { field: "page_size" });
  return null;
}

/** Bonus credits expire this many months after they were granted, for what is left of them. */
export const BONUS_EXPIRY_MONTHS = 12;

/** When a bonus granted at `grantedAt` expires (calendar months in UTC; 29 February rolls to 1 March). */
export function bonusExpiresAt(grantedAt: Date): Date {
  const at = new Date(grantedAt.getTime());
  at.setUTCMonth(at.getUTCMonth() + BONUS_EXPIRY_MONTHS);
  return at;
}

export interface LedgerEntry {
  sid: string;
  tx_type: "top_up" | "deduction" | "refund" | "bonus" | "expiry";
  amount: Cents;
  created_at: Date;
  /** For an expiry row: the bonus row it expired. */
  reference_id: string | null;
  status: string;
}

export interface BonusExpiry {
  bonusSid: string;
  amount: Cents;
}

/**
 * Which bonus grants expire at `now`, and for how much: every credit is a lot, oldest first; each deduction spends
 * the oldest lots with something left (first in, first out) and an expiry row closes its bonus lot. A bonus lot
 * at least BONUS_EXPIRY_MONTHS old with something left and no expiry row yet expires for what is left. `entries`
 * are one wallet's completed rows, oldest first. Running it again after the expiries are written answers nothing.
 */
export function bonusExpiries(entries: readonly LedgerEntry[], now: Date): BonusExpiry[] {
  const lots: { sid: string; left: Cents; bonusAt: Date | null }[] = [];
  for (const e of entries) {
    if (e.status !== "completed") continue;
    if (e.tx_type === "top_up" || e.tx_type === "refund" || e.tx_type === "bonus") {
      lots.push({ sid: e.sid, left: e.amount, bonusAt: e.tx_type === "bonus" ? e.created_at : null });
    } else if (e.tx_type === "expiry") {
      const lot = lots.find((l) => l.sid === e.reference_id);
      if (lot) lot.left = 0;
    } else {
      let owed = e.amount;
      for (const lot of lots) {
        if (owed === 0) break;
        const take = Math.min(lot.left, owed);
        lot.left -= take;
        owed -= take;
      }
    }
  }
  return lots
    .filter((l) => l.bonusAt !== null && l.left > 0 && bonusExpiresAt(l.bonusAt) <= now)
    .map((l) => ({ bonusSid: l.sid, amount: l.left }));
}
