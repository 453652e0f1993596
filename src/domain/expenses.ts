import type { ExpenseStatus } from "../../generated/types.ts";
import { linkUrlOf } from "./business-documents.ts";
import { isValidAmount, roundMoney } from "./money.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Company expense rules (issue 15): the state machine `draft -> submitted -> approved | rejected`, field checks
 * (exact cents, known currencies, non-blank texts), who may decide, and the expense's document audience.
 */

/** Currencies an expense may be recorded in: the ISO 4217 codes the deployment's FX provider prices. */
export const EXPENSE_CURRENCIES: readonly string[] = ["AED", "CHF", "EUR", "GBP", "KES", "TZS", "USD"];

/** A rejection reason is shown to members: at most this many characters after trimming. */
export const MAX_REJECTION_REASON = 1000;

/** The moves of an expense: the state each move starts from and the state it reaches. */
export const EXPENSE_MOVES = {
  submit: { from: "draft", to: "submitted" },
  approve: { from: "submitted", to: "approved" },
  reject: { from: "submitted", to: "rejected" },
} as const satisfies Record<string, { from: ExpenseStatus; to: ExpenseStatus }>;

export type ExpenseMove = keyof typeof EXPENSE_MOVES;

/** Whether `move` may start from `status`; the refusal names both. */
export function moveRefusal(status: ExpenseStatus, move: ExpenseMove): Refusal<"InvalidState"> | null {
  const { from } = EXPENSE_MOVES[move];
  if (status === from) return null;
  return refuse("InvalidState", `only a ${from} expense can be ${EXPENSE_MOVES[move].to}; this one is ${status}`, {
    status,
    required: from,
  });
}

/** Editing and deleting are for drafts only. */
export function draftOnlyRefusal(status: ExpenseStatus, action: "updated" | "deleted"): Refusal<"InvalidState"> | null {
  if (status === "draft") return null;
  return refuse("InvalidState", `only a draft expense can be ${action}; this one is ${status}`, {
    status,
    required: "draft",
  });
}

/** An expense amount: positive, at most two decimals, exact in cents. */
export function expenseAmount(amount: number): number | Refusal<"InvalidAmount"> {
  if (!isValidAmount(amount)) {
    return refuse("InvalidAmount", "amount must be more than 0 with at most 2 decimals", { field: "amount", amount });
  }
  return roundMoney(amount);
}

export function expenseCurrency(currency: string): string | Refusal<"InvalidInput"> {
  if (EXPENSE_CURRENCIES.includes(currency)) return currency;
  return refuse("InvalidInput", `unknown currency "${currency.slice(0, 10)}"`, {
    field: "currency",
    known: EXPENSE_CURRENCIES,
  });
}

/** A required text as stored: trimmed, not blank. */
export function requiredText(field: string, raw: string): string | Refusal<"InvalidInput"> {
  const value = raw.trim();
  return value.length > 0 ? value : refuse("InvalidInput", `${field} must not be blank`, { field });
}

export interface ExpenseFields {
  receipt_number: string;
  vendor_name: string;
  description: string;
  amount: number;
  currency: string;
  category: string;
  receipt_url: string | null;
  expense_date: Date;
}

export interface ExpenseInput {
  receipt_number?: string | undefined;
  vendor_name?: string | undefined;
  description?: string | undefined;
  amount?: number | undefined;
  currency?: string | undefined;
  category?: string | undefined;
  receipt_url?: string | null | undefined;
  expense_date?: string | undefined;
}

/**
 * The checked values of the given fields (absent ones stay absent): the first refusal, amount first so a bad amount
 * is always InvalidAmount. A blank receipt_url means none; any other must be an https link (linkUrlOf).
 */
export function expenseChanges(
  input: ExpenseInput,
): Partial<ExpenseFields> | Refusal<"InvalidAmount" | "InvalidInput"> {
  const out: Partial<ExpenseFields> = {};
  if (input.amount !== undefined) {
    const amount = expenseAmount(input.amount);
    if (typeof amount !== "number") return amount;
    out.amount = amount;
  }
  if (input.currency !== undefined) {
    const currency = expenseCurrency(input.currency);
    if (typeof currency !== "string") return currency;
    out.currency = currency;
  }
  for (const field of ["receipt_number", "vendor_name", "category"] as const) {
    const raw = input[field];
    if (raw === undefined) continue;
    const value = requiredText(field, raw);
    if (typeof value !== "string") return value;
    out[field] = value;
  }
  if (input.description !== undefined) out.description = input.description.trim();
  if (input.receipt_url !== undefined) {
    const url = input.receipt_url?.trim() ?? "";
    const link = url.length > 0 ? linkUrlOf(url, "receipt_url") : null;
    if (link !== null && typeof link !== "string") return link;
    out.receipt_url = link;
  }
  if (input.expense_date !== undefined) out.expense_date = new Date(input.expense_date);
  return out;
}

/** A rejection reason: trimmed, not blank, at most MAX_REJECTION_REASON characters. */
export function rejectionReason(raw: string): string | Refusal<"InvalidInput"> {
  const reason = raw.trim();
  if (reason.length === 0) return refuse("InvalidInput", "a rejection needs a reason", { field: "reason" });
  if (reason.length > MAX_REJECTION_REASON) {
    return refuse("InvalidInput", `reason is longer than ${MAX_REJECTION_REASON} characters`, {
      field: "reason",
      max: MAX_REJECTION_REASON,
    });
  }
  return reason;
}

/**
 * Four eyes: the user who submitted an expense decides nothing about it, neither as the caller nor through a
 * resident they own that someone else (a proxy) acts for; except when that user is the company's whole board
 * (`boardOwnerUserIds`: the owning user of each current director or founder resident, null when it has none), since
 * then nobody else could ever decide: the decision is taken and recorded as `self_decided` (docs/decisions.md
 * "Small companies and smaller slips (issue 30)"). Answers whether the decision is the submitter's own.
 */
export function fourEyes(
  submittedBy: string | null,
  callerUserId: string,
  deciderOwnerUserId: string | null,
  boardOwnerUserIds: readonly (string | null)[],
): { selfDecided: boolean } | Refusal<"SelfApproval"> {
  if (submittedBy === null) return { selfDecided: false };
  if (submittedBy !== callerUserId && submittedBy !== deciderOwnerUserId) return { selfDecided: false };
  if (isWholeBoard(submittedBy, boardOwnerUserIds)) return { selfDecided: true };
  return refuse(
    "SelfApproval",
    "the submitter of an expense may not approve or reject it while another director or founder can",
  );
}

/** Whether `userId` owns every current board seat (and there is at least one). */
export function isWholeBoard(userId: string, boardOwnerUserIds: readonly (string | null)[]): boolean {
  return boardOwnerUserIds.length > 0 && boardOwnerUserIds.every((owner) => owner === userId);
}

/** The audience tiers an expense is classified for: every member tier (any current member may read it). */
export const EXPENSE_CLASSIFICATION: readonly string[] = [
  "director",
  "founder",
  "shareholder",
  "founding_member",
  "platinum_member",
];

/** The rule name written in DocumentAudience.audience_computation for expenses. */
export const EXPENSE_AUDIENCE_RULE = "expense_company_members";
