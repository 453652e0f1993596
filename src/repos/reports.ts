import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import {
  DigitalResidentEntity,
  FinancialReportEntity,
  type FinancialReportRow,
  ZoneCompanyEntity,
  type ZoneCompanyRow,
} from "../../generated/entities.ts";
import type { FinancialReportType, InvoiceStatus, TreasuryTransactionType } from "../../generated/types.ts";
import { dateOf, sqlRows } from "../db/sql.ts";
import { moneyFromDb } from "../domain/money.ts";
import { BOOKED_INVOICE_STATUSES, type BookFacts, type TreasuryFact } from "../domain/reports.ts";

/**
 * The FinancialReport table, and the reads the reports need from the books other services keep (ZoneInvoice,
 * ZoneExpense, TreasuryAccount / TreasuryTransaction): plain queries of their tables, read-only.
 */

/** The most reports one list answers (newest first). */
export const REPORT_LIST_LIMIT = 1000;

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ");

interface InvoiceSql {
  currency: string;
  amount: string;
  tax_amount: string;
  status: InvoiceStatus;
  issue_date: Date | string;
  paid_at: Date | string | null;
}

interface ExpenseSql {
  currency: string;
  amount: string;
  category: string;
  expense_date: Date | string;
  decided_at: Date | string;
}

interface TreasurySql {
  account_id: string;
  currency: string;
  tx_type: TreasuryTransactionType;
  amount: string;
  balance_after: string;
  confirmed_at: Date | string;
}

/**
 * The company's booked facts up to `until` (inclusive): invoices it issued (as `fzc_id` or as the sending company)
 * in a booked status, its approved expenses, and the confirmed movements of the treasury accounts it owns, each
 * account's rows in order with the balance before each.
 */
export async function loadBookFacts(em: EntityManager, companyId: string, until: Date): Promise<BookFacts> {
  const invoices = await sqlRows<InvoiceSql>(
    em,
    `select currency, amount::text as amount, tax_amount::text as tax_amount, status, issue_date, paid_at
       from "zone_invoice"
      where (fzc_id = ? or (sender_entity_type in ('company', 'cooperative') and sender_entity_id = ?))
        and status in (${placeholders(BOOKED_INVOICE_STATUSES.length)}) and issue_date <= ?`,
    [companyId, companyId, ...BOOKED_INVOICE_STATUSES, until],
  );
  const expenses = await sqlRows<ExpenseSql>(
    em,
    `select currency, amount::text as amount, category, expense_date, decided_at
       from "zone_expense"
      where fzc_id = ? and status = 'approved' and decided_at is not null and decided_at <= ?`,
    [companyId, until],
  );
  const treasury = await sqlRows<TreasurySql>(
    em,
    `select t.account_id, t.currency, t.tx_type, t.amount::text as amount, t.balance_after::text as balance_after,
            t.confirmed_at
       from "treasury_transaction" t join "treasury_account" a on a.sid = t.account_id
      where a.owner_type = 'company' and a.owner_id = ? and t.status = 'confirmed'
        and t.confirmed_at is not null and t.confirmed_at <= ?
      order by t.account_id, t.confirmed_at, t.sid`,
    [companyId, until],
  );
  return {
    invoices: invoices.map((r) => ({
      currency: r.currency,
      amount: moneyFromDb(r.amount),
      tax_amount: moneyFromDb(r.tax_amount),
      status: r.status,
      issue_date: dateOf(r.issue_date),
      paid_at: dateOf(r.paid_at),
    })),
    expenses: expenses.map((r) => ({
      currency: r.currency,
      amount: moneyFromDb(r.amount),
      category: r.category,
      expense_date: dateOf(r.expense_date),
      decided_at: dateOf(r.decided_at),
    })),
    treasury: withPreviousBalances(treasury),
  };
}

/** Rows ordered by account then time: each gets the balance_after of the row before it on the same account. */
function withPreviousBalances(rows: readonly TreasurySql[]): TreasuryFact[] {
  const out: TreasuryFact[] = [];
  let account = "";
  let previous = 0;
  for (const r of rows) {
    if (r.account_id !== account) {
      account = r.account_id;
      previous = 0;
    }
    const balanceAfter = moneyFromDb(r.balance_after);
    out.push({
      account_id: r.account_id,
      currency: r.currency,
      tx_type: r.tx_type,
      amount: moneyFromDb(r.amount),
      balance_after: balanceAfter,
      previous_balance: previous,
      confirmed_at: dateOf(r.confirmed_at),
    });
    previous = balanceAfter;
  }
  return out;
}

export function insertReport(em: EntityManager, row: RequiredEntityData<FinancialReportRow>): FinancialReportRow {
  return em.create(FinancialReportEntity, row);
}

export function findReport(em: EntityManager, reportId: string): Promise<FinancialReportRow | null> {
  return em.findOne(FinancialReportEntity, { sid: reportId });
}

/** Newest first, without the bodies; at most REPORT_LIST_LIMIT. */
export function listReports(
  em: EntityManager,
  companyId: string,
  reportType: FinancialReportType | undefined,
): Promise<Omit<FinancialReportRow, "content">[]> {
  return em.find(
    FinancialReportEntity,
    { company_id: companyId, ...(reportType ? { report_type: reportType } : {}) },
    {
      orderBy: { created_at: "desc", sid: "desc" },
      limit: REPORT_LIST_LIMIT,
      exclude: ["content"],
      disableIdentityMap: true,
    },
  ) as Promise<Omit<FinancialReportRow, "content">[]>;
}

/** The company's name and creation instant, by its formatted id. */
export function findCompany(
  em: EntityManager,
  companyId: string,
): Promise<Pick<ZoneCompanyRow, "name" | "created_at"> | null> {
  return em.findOne(
    ZoneCompanyEntity,
    { company_id: companyId },
    { fields: ["name", "created_at"], disableIdentityMap: true },
  );
}

/** A resident's display name; null when unknown or anonymous. */
export async function residentDisplayName(em: EntityManager, residentId: string): Promise<string | null> {
  const r = await em.findOne(
    DigitalResidentEntity,
    { resident_id: residentId },
    { fields: ["first_name", "last_name", "anonymity_enabled"], disableIdentityMap: true },
  );
  if (!r || r.anonymity_enabled) return null;
  return `${r.first_name} ${r.last_name}`.trim() || null;
}
