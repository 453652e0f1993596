import type { InvoiceStatus, TreasuryTransactionType } from "../../generated/types.ts";
import { type Cents, fromCents, toCents } from "./money.ts";
import { type Refusal, refuse } from "./refusal.ts";

/**
 * Financial reports (issue 15): a small chart of accounts, the journal entries the company's invoices, approved
 * expenses and treasury movements post to it, and the four reports built from those entries. Everything is kept
 * per currency (no conversion): each currency is a set of books of its own, balanced on its own. Amounts run in
 * integer cents and leave as major units. See docs/decisions.md "Financial reports".
 */

export const ACCOUNTS = {
  cash: { code: "1000", name: "Cash in treasury accounts", kind: "asset" },
  receivables: { code: "1100", name: "Accounts receivable", kind: "asset" },
  collected: { code: "1200", name: "Invoice payments collected", kind: "asset" },
  payables: { code: "2000", name: "Accounts payable", kind: "liability" },
  taxPayable: { code: "2100", name: "Tax payable", kind: "liability" },
  funding: { code: "3000", name: "Owner funding and unallocated treasury movements", kind: "equity" },
  revenue: { code: "4000", name: "Revenue", kind: "income" },
  expenses: { code: "5000", name: "Operating expenses", kind: "expense" },
} as const;

export type AccountKey = keyof typeof ACCOUNTS;
type AccountKind = (typeof ACCOUNTS)[AccountKey]["kind"];

/** Debit-normal kinds: their balance is debits - credits; the others credits - debits. */
const DEBIT_NORMAL: readonly AccountKind[] = ["asset", "expense"];

/** Invoice statuses that were issued to the recipient and count in the books (draft and cancelled do not). */
export const BOOKED_INVOICE_STATUSES: readonly InvoiceStatus[] = ["sent", "paid", "overdue", "final"];

export interface InvoiceFact {
  currency: string;
  /** Net amount before tax. */
  amount: number;
  tax_amount: number;
  status: InvoiceStatus;
  issue_date: Date;
  paid_at: Date | null;
}

/** An approved expense, with the instant it was approved. */
export interface ExpenseFact {
  currency: string;
  amount: number;
  category: string;
  expense_date: Date;
  decided_at: Date;
}

/** A confirmed treasury transaction; `previous_balance` is the account's balance_after before it (0 first). */
export interface TreasuryFact {
  account_id: string;
  currency: string;
  tx_type: TreasuryTransactionType;
  amount: number;
  balance_after: number;
  previous_balance: number;
  confirmed_at: Date;
}

export interface BookFacts {
  invoices: readonly InvoiceFact[];
  expenses: readonly ExpenseFact[];
  treasury: readonly TreasuryFact[];
}

/**
 * The signed cash effect of a treasury transaction: `credit` adds, `debit` takes away; a `transfer` row says its
 * direction by its balance_after against the account's previous one.
 */
export function treasuryCents(tx: TreasuryFact): Cents {
  const amount = toCents(tx.amount);
  if (tx.tx_type === "credit") return amount;
  if (tx.tx_type === "debit") return -amount;
  return toCents(tx.balance_after) >= toCents(tx.previous_balance) ? amount : -amount;
}

interface Posting {
  currency: string;
  account: AccountKey;
  /** Positive = debit, negative = credit. */
  cents: Cents;
}

/** Whether an invoice was issued (and so booked) by `at`. */
function issuedBy(inv: InvoiceFact, at: Date): boolean {
  return BOOKED_INVOICE_STATUSES.includes(inv.status) && inv.issue_date <= at;
}

/** Whether an issued invoice was paid by `at`. */
function paidBy(inv: InvoiceFact, at: Date): boolean {
  return issuedBy(inv, at) && inv.paid_at !== null && inv.paid_at <= at;
}

/**
 * Every posting known at `asOf` (inclusive), each journal entry balanced:
 * - an issued invoice: Dr receivables (amount + tax), Cr revenue (amount), Cr tax payable (tax), at its issue date;
 * - its payment: Dr invoice payments collected, Cr receivables (amount + tax), at paid_at;
 * - an approved expense: Dr operating expenses, Cr payables, at its expense date (once approved by asOf);
 * - a confirmed treasury movement: Dr cash, Cr owner funding (inflow) or the reverse (outflow), at confirmed_at.
 */
export function postings(facts: BookFacts, asOf: Date): Posting[] {
  const out: Posting[] = [];
  for (const inv of facts.invoices) {
    if (!issuedBy(inv, asOf)) continue;
    const net = toCents(inv.amount);
    const tax = toCents(inv.tax_amount);
    out.push({ currency: inv.currency, account: "receivables", cents: net + tax });
    out.push({ currency: inv.currency, account: "revenue", cents: -net });
    out.push({ currency: inv.currency, account: "taxPayable", cents: -tax });
    if (paidBy(inv, asOf)) {
      out.push({ currency: inv.currency, account: "collected", cents: net + tax });
      out.push({ currency: inv.currency, account: "receivables", cents: -(net + tax) });
    }
  }
  for (const exp of facts.expenses) {
    if (exp.decided_at > asOf || exp.expense_date > asOf) continue;
    const cents = toCents(exp.amount);
    out.push({ currency: exp.currency, account: "expenses", cents });
    out.push({ currency: exp.currency, account: "payables", cents: -cents });
  }
  for (const tx of facts.treasury) {
    if (tx.confirmed_at > asOf) continue;
    const cents = treasuryCents(tx);
    out.push({ currency: tx.currency, account: "cash", cents });
    out.push({ currency: tx.currency, account: "funding", cents: -cents });
  }
  return out;
}

function currenciesOf(facts: BookFacts): string[] {
  const all = [...facts.invoices, ...facts.expenses, ...facts.treasury].map((f) => f.currency);
  return [...new Set(all)].sort();
}

/** Net debit balance (debits - credits) in cents of each account, per currency. */
function debitBalances(list: readonly Posting[], currency: string): Record<AccountKey, Cents> {
  const out = Object.fromEntries(Object.keys(ACCOUNTS).map((k) => [k, 0])) as Record<AccountKey, Cents>;
  for (const p of list) if (p.currency === currency) out[p.account] += p.cents;
  return out;
}

/** An account's balance on its normal side (positive when it holds what its kind holds). */
function normalBalance(key: AccountKey, debitBalance: Cents): Cents {
  return DEBIT_NORMAL.includes(ACCOUNTS[key].kind) ? debitBalance : -debitBalance;
}

const m = fromCents;

// ---- Trial balance ----

export interface TrialBalanceLine {
  code: string;
  name: string;
  kind: AccountKind;
  debit: number;
  credit: number;
}

export interface TrialBalanceSection {
  currency: string;
  accounts: TrialBalanceLine[];
  total_debit: number;
  total_credit: number;
  balanced: boolean;
}

export function trialBalance(facts: BookFacts, asOf: Date): TrialBalanceSection[] {
  const list = postings(facts, asOf);
  return currenciesOf(facts).map((currency) => {
    const balances = debitBalances(list, currency);
    let debits = 0;
    let credits = 0;
    const accounts = (Object.keys(ACCOUNTS) as AccountKey[]).map((key) => {
      const b = balances[key];
      if (b > 0) debits += b;
      else credits -= b;
      const { code, name, kind } = ACCOUNTS[key];
      return { code, name, kind, debit: m(Math.max(b, 0)), credit: m(Math.max(-b, 0)) };
    });
    return { currency, accounts, total_debit: m(debits), total_credit: m(credits), balanced: debits === credits };
  });
}

// ---- Balance sheet ----

export interface BalanceSheetSection {
  currency: string;
  assets: { cash: number; accounts_receivable: number; invoice_payments_collected: number; total: number };
  liabilities: { accounts_payable: number; tax_payable: number; total: number };
  equity: { owner_funding: number; retained_earnings: number; total: number };
  total_liabilities_and_equity: number;
  balanced: boolean;
}

export function balanceSheet(facts: BookFacts, asOf: Date): BalanceSheetSection[] {
  const list = postings(facts, asOf);
  return currenciesOf(facts).map((currency) => {
    const d = debitBalances(list, currency);
    const n = (key: AccountKey) => normalBalance(key, d[key]);
    const assets = n("cash") + n("receivables") + n("collected");
    const liabilities = n("payables") + n("taxPayable");
    const retained = n("revenue") - n("expenses");
    const equity = n("funding") + retained;
    return {
      currency,
      assets: {
        cash: m(n("cash")),
        accounts_receivable: m(n("receivables")),
        invoice_payments_collected: m(n("collected")),
        total: m(assets),
      },
      liabilities: { accounts_payable: m(n("payables")), tax_payable: m(n("taxPayable")), total: m(liabilities) },
      equity: { owner_funding: m(n("funding")), retained_earnings: m(retained), total: m(equity) },
      total_liabilities_and_equity: m(liabilities + equity),
      balanced: assets === liabilities + equity,
    };
  });
}

// ---- Income statement ----

export interface IncomeStatementSection {
  currency: string;
  revenue: number;
  tax_collected: number;
  invoices_issued: number;
  operating_expenses: { category: string; amount: number }[];
  total_expenses: number;
  net_income: number;
}

const within = (at: Date, start: Date, end: Date) => at >= start && at < end;

/**
 * Revenue: invoices issued in [start, end) (net of tax); expenses: approved expenses dated in [start, end) and
 * approved before `end`. Net income = revenue - expenses.
 */
export function incomeStatement(facts: BookFacts, start: Date, end: Date): IncomeStatementSection[] {
  return currenciesOf(facts).map((currency) => {
    const invoices = facts.invoices.filter(
      (i) => i.currency === currency && BOOKED_INVOICE_STATUSES.includes(i.status) && within(i.issue_date, start, end),
    );
    const revenue = invoices.reduce((s, i) => s + toCents(i.amount), 0);
    const tax = invoices.reduce((s, i) => s + toCents(i.tax_amount), 0);
    const byCategory = new Map<string, Cents>();
    for (const e of facts.expenses) {
      if (e.currency !== currency || !within(e.expense_date, start, end) || e.decided_at >= end) continue;
      byCategory.set(e.category, (byCategory.get(e.category) ?? 0) + toCents(e.amount));
    }
    const expenses = [...byCategory.values()].reduce((s, c) => s + c, 0);
    return {
      currency,
      revenue: m(revenue),
      tax_collected: m(tax),
      invoices_issued: invoices.length,
      operating_expenses: [...byCategory.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([category, cents]) => ({ category, amount: m(cents) })),
      total_expenses: m(expenses),
      net_income: m(revenue - expenses),
    };
  });
}

// ---- Cash flow ----

export interface CashFlowSection {
  currency: string;
  opening_cash: number;
  collections_from_customers: number;
  treasury_inflows: number;
  treasury_outflows: number;
  net_change: number;
  closing_cash: number;
}

/**
 * Cash = treasury balances + invoice payments collected; opening just before `start`, closing just before `end`
 * (the period is [start, end)). Collections are what invoice payments collected grew by; treasury inflows and
 * outflows are the confirmed movements of the period. Approved expenses are payables: no payment of them is booked.
 */
export function cashFlow(facts: BookFacts, start: Date, end: Date): CashFlowSection[] {
  return currenciesOf(facts).map((currency) => {
    const before = (at: Date) => debitBalances(postings(facts, new Date(at.getTime() - 1)), currency);
    const opening = before(start);
    const closing = before(end);
    const collections = closing.collected - opening.collected;
    let inflows = 0;
    let outflows = 0;
    for (const tx of facts.treasury) {
      if (tx.currency !== currency || !within(tx.confirmed_at, start, end)) continue;
      const c = treasuryCents(tx);
      if (c >= 0) inflows += c;
      else outflows -= c;
    }
    const net = collections + inflows - outflows;
    return {
      currency,
      opening_cash: m(opening.cash + opening.collected),
      collections_from_customers: m(collections),
      treasury_inflows: m(inflows),
      treasury_outflows: m(outflows),
      net_change: m(net),
      closing_cash: m(closing.cash + closing.collected),
    };
  });
}

// ---- Input checks ----

/** A report may not look into the future. */
export function asOfRefusal(asOf: Date, now: Date): Refusal<"InvalidInput"> | null {
  if (asOf <= now) return null;
  return refuse("InvalidInput", "as_of_date is in the future", { as_of_date: asOf.toISOString() });
}

export function periodRefusal(start: Date, end: Date, now: Date): Refusal<"InvalidInput"> | null {
  if (end <= start) return refuse("InvalidInput", "period_end must be after period_start");
  if (end > now) return refuse("InvalidInput", "period_end is in the future", { period_end: end.toISOString() });
  return null;
}

/** Report type names as titles say them. */
export const REPORT_TITLES = {
  balance_sheet: "Balance sheet",
  income_statement: "Income statement",
  cash_flow: "Cash-flow statement",
  trial_balance: "Trial balance",
} as const;

export const REPORT_AUDIENCE_RULE = "financial_report_company_members";

/** Any current member may read a company's reports: every member tier. */
export const REPORT_CLASSIFICATION: readonly string[] = [
  "director",
  "founder",
  "shareholder",
  "founding_member",
  "platinum_member",
];
