import type { TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import { EXPENSES, INVOICES, TREASURY } from "./books.ts";

/**
 * Rows of the books other services keep (invoices, expenses, treasury), written through the data layer: the
 * reports read those tables directly, whatever service later writes them.
 */

const orm = (t: TestApp) => t.app.runtime.orm;
let invoiceCounter = 0;

export async function insertInvoice(t: TestApp, companyId: string, values: Record<string, unknown>): Promise<string> {
  invoiceCounter += 1;
  const row = await insertRow(orm(t), "ZoneInvoice", {
    fzc_id: companyId,
    invoice_number: `INV-${invoiceCounter}`,
    description: "services",
    due_date: new Date("2026-12-31T00:00:00.000Z"),
    sender_entity_type: "company",
    sender_entity_id: companyId,
    ...values,
  });
  return row["sid"] as string;
}

export async function insertTreasuryAccount(t: TestApp, ownerId: string, currency = "USD"): Promise<string> {
  const row = await insertRow(orm(t), "TreasuryAccount", {
    owner_type: "company",
    owner_id: ownerId,
    kind: "bank_account",
    name: `${currency} account`,
    currency,
  });
  return row["sid"] as string;
}

/**
 * The books of test/reports/books.ts for `companyId`: the person-to-person style invoice (fzc_id empty, sent by the
 * company as sender entity) is the overdue one, so both ways an invoice names its company are read.
 */
export async function seedBooks(t: TestApp, companyId: string): Promise<void> {
  for (const { key, issue_date, paid_at, ...inv } of INVOICES) {
    await insertInvoice(t, companyId, {
      ...inv,
      ...(key === "overdue" ? { fzc_id: "" } : {}),
      issue_date: new Date(issue_date),
      paid_at: paid_at ? new Date(paid_at) : null,
    });
  }
  for (const { key, expense_date, decided_at, ...exp } of EXPENSES) {
    await insertRow(orm(t), "ZoneExpense", {
      ...exp,
      fzc_id: companyId,
      receipt_number: `R-${key}`,
      vendor_name: "Vendor",
      expense_date: new Date(expense_date),
      decided_at: decided_at ? new Date(decided_at) : null,
    });
  }
  const accounts = {
    main: await insertTreasuryAccount(t, companyId),
    reserve: await insertTreasuryAccount(t, companyId),
  };
  let second = 0;
  for (const { account, confirmed_at, ...tx } of TREASURY) {
    second += 1;
    // created in list order (sids too), so a row's place among its account's rows is the list's
    await insertRow(orm(t), "TreasuryTransaction", {
      ...tx,
      account_id: accounts[account],
      owner_type: "company",
      owner_id: companyId,
      currency: "USD",
      description: `${tx.tx_type} ${second}`,
      confirmed_at: confirmed_at ? new Date(confirmed_at) : null,
    });
  }
}

/** Books of another company that must never show up in the seeded company's reports. */
export async function seedOtherBooks(t: TestApp, otherId: string): Promise<void> {
  await insertInvoice(t, otherId, {
    amount: 5555,
    tax_amount: 5,
    currency: "USD",
    status: "sent",
    issue_date: new Date("2026-10-02T00:00:00.000Z"),
  });
  const account = await insertTreasuryAccount(t, otherId);
  await insertRow(orm(t), "TreasuryTransaction", {
    account_id: account,
    owner_type: "company",
    owner_id: otherId,
    tx_type: "credit",
    amount: 7777,
    balance_after: 7777,
    currency: "USD",
    description: "other",
    status: "confirmed",
    confirmed_at: new Date("2026-10-02T00:00:00.000Z"),
  });
}

/** Everything a report call may write: compared before and after a refusal. */
export async function reportWrites(t: TestApp) {
  return {
    reports: await sql(t, `select sid from "financial_report" order by sid`),
    audiences: await count(t, "document_audience"),
  };
}
