import type { InvoicePaymentInstructions, InvoiceStatus, LineItem } from "../../generated/types.ts";
import { EXPENSE_CURRENCIES } from "./expenses.ts";
import { fromCents, isValidAmount, MAX_MONEY, multiplyMoney, roundMoney, toCents } from "./money.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Invoice rules (issue 15): totals in exact cents, input checks, the state moves (send, mark paid, overdue), the
 * recipient name's resolution order, and redaction of the payment instructions' security answer. Pure: no `em`,
 * no clock, no keys (sealing takes the sealing function).
 */

/** Currencies an invoice may be issued in: the ones the deployment prices (as expenses). */
export const INVOICE_CURRENCIES: readonly string[] = EXPENSE_CURRENCIES;

/** The cap on sender_message (the seed's "length capped by a constant"; the spec's maxLength says the same). */
export const MAX_SENDER_MESSAGE = 1000;

/** The largest quantity a line takes (keeps quantity x unit_price exact in cents). */
export const MAX_LINE_QUANTITY = 1_000_000;

/** What an invoice status moves to, from where. `cancelled` and `final` are not reached (docs/decisions.md). */
export const INVOICE_MOVES = {
  send: { from: ["draft"], to: "sent" },
  mark_paid: { from: ["sent", "overdue"], to: "paid" },
  overdue: { from: ["sent"], to: "overdue" },
  cancel: { from: ["sent", "overdue"], to: "cancelled" },
} as const satisfies Record<string, { from: readonly InvoiceStatus[]; to: InvoiceStatus }>;

export type InvoiceMove = keyof typeof INVOICE_MOVES;

export function moveRefusal(status: InvoiceStatus, move: InvoiceMove): Refusal<"InvalidState"> | null {
  const { from, to } = INVOICE_MOVES[move];
  if ((from as readonly InvoiceStatus[]).includes(status)) return null;
  return refuse("InvalidState", `only a ${from.join(" or ")} invoice can become ${to}; this one is ${status}`, {
    status,
    required: from,
  });
}

/** Editing, deleting and sending are for drafts only. */
export function draftOnlyRefusal(status: InvoiceStatus, action: string): Refusal<"InvalidState"> | null {
  if (status === "draft") return null;
  return refuse("InvalidState", `only a draft invoice can be ${action}; this one is ${status}`, {
    status,
    required: "draft",
  });
}

/**
 * Marking paid (mark_paid here, a confirmed `invoice_payment` in the payments work): only a sent or overdue invoice,
 * and only once; the method is required, the reference optional. Answers the fields the move sets.
 */
export function markPaidDecision(
  status: InvoiceStatus,
  method: string,
  reference: string | null | undefined,
  now: Date,
):
  | { payment_method: string; payment_reference: string | null; paid_at: Date }
  | Refusal<"InvalidState" | "InvalidInput"> {
  const bad = moveRefusal(status, "mark_paid");
  if (bad) return bad;
  const cleanMethod = method.trim();
  if (cleanMethod.length === 0)
    return refuse("InvalidInput", "payment_method must not be blank", { field: "payment_method" });
  const cleanRef = reference?.trim() ?? "";
  return { payment_method: cleanMethod, payment_reference: cleanRef.length > 0 ? cleanRef : null, paid_at: now };
}

export interface TotalsInput {
  line_items: readonly LineItem[];
  amount: number | null;
  tax_amount: number | null;
}

export interface Totals {
  line_items: LineItem[];
  amount: number;
  tax_amount: number;
}

const badAmount = (field: string, value: unknown, message: string) =>
  refuse("InvalidAmount", message, { field, value });

/** A figure as money: non-negative, at most 2 decimals, exact. */
function money(value: number): boolean {
  return value === 0 || isValidAmount(value);
}

/**
 * The server's figures: each line's amount is quantity x unit_price (half-even to the cent), its tax amount x
 * tax_rate; amount is the lines' sum, tax_amount the lines' tax. A given figure that differs is InvalidAmount.
 * Without lines the given amount stands (required) and tax_amount defaults to 0. The net amount must be positive.
 */
export function invoiceTotals(input: TotalsInput): Totals | Refusal<"InvalidAmount" | "InvalidInput"> {
  const lines: LineItem[] = [];
  let net = 0;
  let tax = 0;
  for (const [i, line] of input.line_items.entries()) {
    const field = `line_items[${i}]`;
    if (line.description.trim().length === 0) {
      return refuse("InvalidInput", `${field}.description must not be blank`, { field });
    }
    if (!Number.isFinite(line.quantity) || line.quantity <= 0 || line.quantity > MAX_LINE_QUANTITY) {
      return badAmount(
        `${field}.quantity`,
        line.quantity,
        `quantity must be more than 0, at most ${MAX_LINE_QUANTITY}`,
      );
    }
    if (!money(line.unit_price)) {
      return badAmount(`${field}.unit_price`, line.unit_price, "unit_price must be 0 or more with at most 2 decimals");
    }
    if (line.tax_rate !== null && !(Number.isFinite(line.tax_rate) && line.tax_rate >= 0 && line.tax_rate <= 1)) {
      return refuse("InvalidInput", `${field}.tax_rate must be a fraction from 0 to 1`, { field: `${field}.tax_rate` });
    }
    const amount = multiplyMoney(line.unit_price, line.quantity);
    if (!money(line.amount) || toCents(line.amount) !== toCents(amount)) {
      return badAmount(`${field}.amount`, line.amount, `line amount must be quantity x unit_price = ${amount}`);
    }
    net += toCents(amount);
    tax += line.tax_rate === null ? 0 : toCents(multiplyMoney(amount, line.tax_rate));
    lines.push({ ...line, description: line.description.trim(), amount });
  }
  if (lines.length > 0) {
    if (input.amount !== null && (!money(input.amount) || toCents(input.amount) !== net)) {
      return badAmount("amount", input.amount, `amount must equal the line items' total ${fromCents(net)}`);
    }
    if (input.tax_amount !== null && (!money(input.tax_amount) || toCents(input.tax_amount) !== tax)) {
      return badAmount("tax_amount", input.tax_amount, `tax_amount must equal the line items' tax ${fromCents(tax)}`);
    }
  } else {
    if (input.amount === null) return badAmount("amount", null, "amount is required without line items");
    if (!money(input.amount)) return badAmount("amount", input.amount, "amount must have at most 2 decimals");
    net = toCents(input.amount);
    if (input.tax_amount !== null) {
      if (!money(input.tax_amount)) {
        return badAmount("tax_amount", input.tax_amount, "tax_amount must be 0 or more with at most 2 decimals");
      }
      tax = toCents(input.tax_amount);
    }
  }
  if (net <= 0) return badAmount("amount", fromCents(net), "an invoice's amount must be more than 0");
  if (fromCents(net + tax) > MAX_MONEY) return badAmount("amount", fromCents(net), "amount is too large");
  return { line_items: lines, amount: fromCents(net), tax_amount: fromCents(tax) };
}

/** amount + tax_amount, exact. */
export function totalAmount(amount: number, taxAmount: number): number {
  return roundMoney(fromCents(toCents(amount) + toCents(taxAmount)));
}

export interface RecipientInput {
  recipient_user_id: string | null;
  recipient_entity_type: "resident" | "company" | "cooperative" | null;
  recipient_entity_id: string | null;
  recipient_email: string | null;
}

/** At least one recipient; an entity type needs its id and an id its type. */
export function recipientRefusal(r: RecipientInput): Refusal<"InvalidInput"> | null {
  if ((r.recipient_entity_type === null) !== (r.recipient_entity_id === null)) {
    return refuse("InvalidInput", "recipient_entity_type and recipient_entity_id go together", {
      field: "recipient_entity_id",
    });
  }
  if (r.recipient_entity_id === null && r.recipient_user_id === null && r.recipient_email === null) {
    return refuse("InvalidInput", "an invoice needs a recipient: an entity, a user or an email", {
      field: "recipient",
    });
  }
  return null;
}

export function currencyRefusal(currency: string): Refusal<"InvalidInput"> | null {
  if (INVOICE_CURRENCIES.includes(currency)) return null;
  return refuse("InvalidInput", `unknown currency "${currency.slice(0, 10)}"`, {
    field: "currency",
    known: INVOICE_CURRENCIES,
  });
}

export function datesRefusal(issueDate: Date, dueDate: Date): Refusal<"InvalidInput"> | null {
  if (Number.isNaN(issueDate.getTime()) || Number.isNaN(dueDate.getTime())) {
    return refuse("InvalidInput", "issue_date and due_date must be dates", { field: "due_date" });
  }
  if (dueDate.getTime() < issueDate.getTime()) {
    return refuse("InvalidInput", "due_date must not be before issue_date", { field: "due_date" });
  }
  return null;
}

/** A stored note: trimmed, blank is none; over MAX_SENDER_MESSAGE is InvalidInput (the schema says so first). */
export function senderMessage(raw: string | null | undefined): string | null | Refusal<"InvalidInput"> {
  const note = raw?.trim() ?? "";
  if (note.length === 0) return null;
  if (note.length > MAX_SENDER_MESSAGE) {
    return refuse("InvalidInput", `sender_message is longer than ${MAX_SENDER_MESSAGE} characters`, {
      field: "sender_message",
      max: MAX_SENDER_MESSAGE,
    });
  }
  return note;
}

/** The names a recipient may be known by, as the repositories found them. */
export interface RecipientFacts {
  companyName: string | null;
  residentName: string | null;
  userName: string | null;
  email: string | null;
}

/** The seed's order: company or cooperative, then resident real name, then user name, then email, then a dash. */
export function recipientName(f: RecipientFacts): string {
  for (const name of [f.companyName, f.residentName, f.userName, f.email]) {
    const clean = name?.trim() ?? "";
    if (clean.length > 0) return clean;
  }
  return "-";
}

/** "First Last", or null when both are blank. */
export function personName(first: string | null | undefined, last: string | null | undefined): string | null {
  const name = [first, last]
    .map((s) => s?.trim() ?? "")
    .filter((s) => s.length > 0)
    .join(" ");
  return name.length > 0 ? name : null;
}

/** Every read: the security answer is never read back. */
export function redactInstructions(pi: InvoicePaymentInstructions): InvoicePaymentInstructions {
  return { ...pi, security_answer: null };
}

/**
 * On save of instructions the client gave: the security answer is always sealed (even text that looks sealed: only
 * a prefill from a stored default is copied verbatim, by the caller, without passing here); a blank one is none.
 */
export function sealInstructions(
  pi: InvoicePaymentInstructions,
  seal: (plaintext: string) => string,
): InvoicePaymentInstructions {
  const answer = pi.security_answer;
  if (answer === null || answer.trim().length === 0) return { ...pi, security_answer: null };
  return { ...pi, security_answer: seal(answer) };
}

/** The audience tiers of a company invoice: every member tier (any current member may list the company's invoices). */
export const INVOICE_CLASSIFICATION: readonly string[] = [
  "director",
  "founder",
  "shareholder",
  "founding_member",
  "platinum_member",
];

/** The rule name written in DocumentAudience.audience_computation for invoices. */
export const INVOICE_AUDIENCE_RULE = "invoice_issuer_members";

/** The issuer's counter name: numbers run per issuing company, or per issuing resident. */
export function invoiceCounterName(issuerId: string): string {
  return `invoice:${issuerId}`;
}

/** The n-th invoice number of an issuer. */
export function formatInvoiceNumber(n: number): string {
  return `INV-${String(n).padStart(6, "0")}`;
}

/** The PDF's file name (attachment and preview). */
export function invoiceFilename(invoiceNumber: string): string {
  return `invoice-${invoiceNumber.replace(/[^A-Za-z0-9._-]/g, "_")}.pdf`;
}
