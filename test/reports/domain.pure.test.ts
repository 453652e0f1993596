import { describe, expect, test } from "vitest";
import {
  asOfRefusal,
  balanceSheet,
  cashFlow,
  incomeStatement,
  periodRefusal,
  type TreasuryFact,
  treasuryCents,
  trialBalance,
} from "../../src/domain/reports.ts";
import { AS_OF, BALANCE_SHEET_AS_OF_USD, bookFacts, OCT_END, OCT_START, TRIAL_AS_OF } from "./books.ts";

const d = (iso: string) => new Date(iso);

/** Trial balance lines by account code: [debit, credit]. */
function lines(section: ReturnType<typeof trialBalance>[number]) {
  return Object.fromEntries(section.accounts.map((a) => [a.code, [a.debit, a.credit]]));
}

describe("trial balance", () => {
  test("the seeded books as of 2026-11-01: known figures per account, debits = credits in each currency", () => {
    const [eur, usd] = trialBalance(bookFacts(), d(AS_OF));
    expect(usd?.currency).toBe("USD");
    expect(lines(usd!)).toEqual(TRIAL_AS_OF.usdLines);
    expect(usd).toMatchObject(TRIAL_AS_OF.usdTotals);
    expect(eur).toMatchObject(TRIAL_AS_OF.eurTotals);
    expect(lines(eur!)).toMatchObject({ "1100": [120, 0], "4000": [0, 100], "2100": [0, 20] });
  });

  test("later: the payment after AS_OF moved 354.00 to collected, the invoice issued after it is receivable (898.00)", () => {
    const [, usd] = trialBalance(bookFacts(), d("2026-11-23T00:00:00.000Z"));
    const l = lines(usd!);
    expect(l["1100"]).toEqual([2278, 0]);
    expect(l["1200"]).toEqual([944.59, 0]);
    expect(l["1000"]).toEqual([4749.6, 0]);
    expect(l["5000"]).toEqual([245, 0]);
    expect(usd?.balanced).toBe(true);
  });

  test("many small amounts stay exact in cents", () => {
    const invoices = Array.from({ length: 1000 }, () => ({
      currency: "USD",
      amount: 0.1,
      tax_amount: 0.01,
      status: "sent" as const,
      issue_date: d("2026-01-01T00:00:00.000Z"),
      paid_at: null,
    }));
    const [usd] = trialBalance({ invoices, expenses: [], treasury: [] }, d(AS_OF));
    expect(usd).toMatchObject({ total_debit: 110, total_credit: 110, balanced: true });
  });

  test("no books: no sections", () => {
    expect(trialBalance({ invoices: [], expenses: [], treasury: [] }, d(AS_OF))).toEqual([]);
  });
});

describe("balance sheet", () => {
  test("assets = liabilities + equity with retained earnings = revenue - expenses", () => {
    const [, usd] = balanceSheet(bookFacts(), d(AS_OF));
    expect(usd).toEqual(BALANCE_SHEET_AS_OF_USD);
  });
});

describe("income statement", () => {
  test("October: invoices issued in October, approved expenses dated in October and approved before its end", () => {
    const [, usd] = incomeStatement(bookFacts(), d(OCT_START), d(OCT_END));
    expect(usd).toEqual({
      currency: "USD",
      revenue: 1800.5,
      tax_collected: 324.09,
      invoices_issued: 3,
      operating_expenses: [
        { category: "office", amount: 120.25 },
        { category: "travel", amount: 79.75 },
      ],
      total_expenses: 200,
      net_income: 1600.5,
    });
  });
});

describe("cash flow", () => {
  test("October: opening + collections + inflows - outflows = closing", () => {
    const [, usd] = cashFlow(bookFacts(), d(OCT_START), d(OCT_END));
    expect(usd).toEqual({
      currency: "USD",
      opening_cash: 5000,
      collections_from_customers: 590.59,
      treasury_inflows: 249.6,
      treasury_outflows: 1500,
      net_change: -659.81,
      closing_cash: 4340.19,
    });
  });
});

describe("treasury movements", () => {
  const tx = (over: Partial<TreasuryFact>): TreasuryFact => ({
    account_id: "a",
    currency: "USD",
    tx_type: "credit",
    amount: 10,
    balance_after: 10,
    previous_balance: 0,
    confirmed_at: d(AS_OF),
    ...over,
  });
  test("credit adds, debit takes away, a transfer goes the way its balance moved", () => {
    expect(treasuryCents(tx({}))).toBe(1000);
    expect(treasuryCents(tx({ tx_type: "debit", balance_after: 0, previous_balance: 10 }))).toBe(-1000);
    expect(treasuryCents(tx({ tx_type: "transfer", balance_after: 15, previous_balance: 5 }))).toBe(1000);
    expect(treasuryCents(tx({ tx_type: "transfer", balance_after: 5, previous_balance: 15 }))).toBe(-1000);
  });
});

describe("input checks", () => {
  const now = d("2026-11-23T10:00:00.000Z");
  test("as_of_date may be now, not later", () => {
    expect(asOfRefusal(now, now)).toBeNull();
    expect(asOfRefusal(d("2026-11-23T10:00:00.001Z"), now)?.refusal).toBe("InvalidInput");
  });
  test("a period ends after it starts and not after now", () => {
    expect(periodRefusal(d(OCT_START), d(OCT_END), now)).toBeNull();
    expect(periodRefusal(d(OCT_START), now, now)).toBeNull();
    expect(periodRefusal(d(OCT_START), d(OCT_START), now)?.refusal).toBe("InvalidInput");
    expect(periodRefusal(d(OCT_END), d(OCT_START), now)?.refusal).toBe("InvalidInput");
    expect(periodRefusal(d(OCT_START), d("2026-11-23T10:00:00.001Z"), now)?.refusal).toBe("InvalidInput");
  });
});
