import type { BookFacts } from "../../src/domain/reports.ts";

/**
 * The seeded company's books with known figures (USD and EUR), shared by the domain test and the HTTP test (which
 * writes the same facts as rows). Expected figures are worked out by hand in the tests.
 */

const d = (iso: string) => new Date(iso);

export const AS_OF = "2026-11-01T00:00:00.000Z";
/** The trial balance of these books as of AS_OF: USD debit/credit per account code, and each currency's totals. */
export const TRIAL_AS_OF = {
  usdLines: {
    "1000": [3749.6, 0],
    "1100": [1734, 0],
    "1200": [590.59, 0],
    "2000": [0, 200],
    "2100": [0, 324.09],
    "3000": [0, 3749.6],
    "4000": [0, 2000.5],
    "5000": [200, 0],
  },
  usdTotals: { total_debit: 6274.19, total_credit: 6274.19, balanced: true },
  eurTotals: { currency: "EUR", total_debit: 120, total_credit: 120, balanced: true },
};

/** The USD section of the balance sheet of these books as of AS_OF. */
export const BALANCE_SHEET_AS_OF_USD = {
  currency: "USD",
  assets: { cash: 3749.6, accounts_receivable: 1734, invoice_payments_collected: 590.59, total: 6074.19 },
  liabilities: { accounts_payable: 200, tax_payable: 324.09, total: 524.09 },
  equity: { owner_funding: 3749.6, retained_earnings: 1800.5, total: 5550.1 },
  total_liabilities_and_equity: 6074.19,
  balanced: true,
};

export const OCT_START = "2026-10-01T00:00:00.000Z";
export const OCT_END = "2026-11-01T00:00:00.000Z";

export const INVOICES = [
  // issued in October, unpaid: receivable 1180.00
  {
    key: "sent",
    currency: "USD",
    amount: 1000,
    tax_amount: 180,
    status: "sent",
    issue_date: "2026-10-05T00:00:00.000Z",
    paid_at: null,
  },
  // issued and paid in October: collected 590.59
  {
    key: "paid",
    currency: "USD",
    amount: 500.5,
    tax_amount: 90.09,
    status: "paid",
    issue_date: "2026-10-10T00:00:00.000Z",
    paid_at: "2026-10-20T12:00:00.000Z",
  },
  // issued in September, overdue, no tax: receivable 200.00
  {
    key: "overdue",
    currency: "USD",
    amount: 200,
    tax_amount: 0,
    status: "overdue",
    issue_date: "2026-09-01T00:00:00.000Z",
    paid_at: null,
  },
  // issued in October, paid after AS_OF: still a receivable of 354.00 at AS_OF
  {
    key: "paidLater",
    currency: "USD",
    amount: 300,
    tax_amount: 54,
    status: "paid",
    issue_date: "2026-10-15T00:00:00.000Z",
    paid_at: "2026-11-05T00:00:00.000Z",
  },
  // not booked: draft, cancelled, issued after AS_OF
  {
    key: "draft",
    currency: "USD",
    amount: 999,
    tax_amount: 0,
    status: "draft",
    issue_date: "2026-10-06T00:00:00.000Z",
    paid_at: null,
  },
  {
    key: "cancelled",
    currency: "USD",
    amount: 777,
    tax_amount: 0,
    status: "cancelled",
    issue_date: "2026-10-07T00:00:00.000Z",
    paid_at: null,
  },
  {
    key: "future",
    currency: "USD",
    amount: 888,
    tax_amount: 10,
    status: "sent",
    issue_date: "2026-11-10T00:00:00.000Z",
    paid_at: null,
  },
  // a second currency: its own books
  {
    key: "euro",
    currency: "EUR",
    amount: 100,
    tax_amount: 20,
    status: "sent",
    issue_date: "2026-10-08T00:00:00.000Z",
    paid_at: null,
  },
] as const;

export const EXPENSES = [
  {
    key: "office",
    currency: "USD",
    amount: 120.25,
    category: "office",
    status: "approved",
    expense_date: "2026-10-03T00:00:00.000Z",
    decided_at: "2026-10-04T00:00:00.000Z",
  },
  {
    key: "travel",
    currency: "USD",
    amount: 79.75,
    category: "travel",
    status: "approved",
    expense_date: "2026-10-12T00:00:00.000Z",
    decided_at: "2026-10-13T00:00:00.000Z",
  },
  // approved after AS_OF: not in the books at AS_OF, nor in October's income statement
  {
    key: "late",
    currency: "USD",
    amount: 45,
    category: "office",
    status: "approved",
    expense_date: "2026-10-28T00:00:00.000Z",
    decided_at: "2026-11-02T00:00:00.000Z",
  },
  // not booked: submitted, rejected
  {
    key: "submitted",
    currency: "USD",
    amount: 50,
    category: "office",
    status: "submitted",
    expense_date: "2026-10-03T00:00:00.000Z",
    decided_at: null,
  },
  {
    key: "rejected",
    currency: "USD",
    amount: 60,
    category: "office",
    status: "rejected",
    expense_date: "2026-10-03T00:00:00.000Z",
    decided_at: "2026-10-04T00:00:00.000Z",
  },
] as const;

/** Treasury rows per account, in order; `main` and `reserve` are the company's USD accounts. */
export const TREASURY = [
  {
    account: "main",
    tx_type: "credit",
    amount: 5000,
    balance_after: 5000,
    status: "confirmed",
    confirmed_at: "2026-09-15T00:00:00.000Z",
  },
  {
    account: "main",
    tx_type: "debit",
    amount: 1250.4,
    balance_after: 3749.6,
    status: "confirmed",
    confirmed_at: "2026-10-01T09:00:00.000Z",
  },
  {
    account: "main",
    tx_type: "transfer",
    amount: 249.6,
    balance_after: 3500,
    status: "confirmed",
    confirmed_at: "2026-10-18T00:00:00.000Z",
  },
  {
    account: "reserve",
    tx_type: "transfer",
    amount: 249.6,
    balance_after: 249.6,
    status: "confirmed",
    confirmed_at: "2026-10-18T00:00:00.000Z",
  },
  // not booked: pending, failed, confirmed after AS_OF
  { account: "main", tx_type: "credit", amount: 100, balance_after: 3600, status: "pending", confirmed_at: null },
  { account: "main", tx_type: "credit", amount: 400, balance_after: 3900, status: "failed", confirmed_at: null },
  {
    account: "main",
    tx_type: "credit",
    amount: 1000,
    balance_after: 4500,
    status: "confirmed",
    confirmed_at: "2026-11-03T00:00:00.000Z",
  },
] as const;

/** The same books as domain facts (what src/repos/reports.ts loads for them). */
export function bookFacts(): BookFacts {
  const booked = ["sent", "paid", "overdue", "final"];
  const previous = new Map<string, number>();
  return {
    invoices: INVOICES.filter((i) => booked.includes(i.status)).map((i) => ({
      currency: i.currency,
      amount: i.amount,
      tax_amount: i.tax_amount,
      status: i.status,
      issue_date: d(i.issue_date),
      paid_at: i.paid_at ? d(i.paid_at) : null,
    })),
    expenses: EXPENSES.filter((e) => e.status === "approved").map((e) => ({
      currency: e.currency,
      amount: e.amount,
      category: e.category,
      expense_date: d(e.expense_date),
      decided_at: d(e.decided_at as string),
    })),
    treasury: TREASURY.filter((t) => t.status === "confirmed").map((t) => {
      const before = previous.get(t.account) ?? 0;
      previous.set(t.account, t.balance_after);
      return {
        account_id: t.account,
        currency: "USD",
        tx_type: t.tx_type,
        amount: t.amount,
        balance_after: t.balance_after,
        previous_balance: before,
        confirmed_at: d(t.confirmed_at as string),
      };
    }),
  };
}
