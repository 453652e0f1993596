import type { FinancialReportRow, ZoneCompanyRow } from "../../generated/entities.ts";
import type { ReportServiceHandlers } from "../../generated/handlers/index.ts";
import type { Targeted } from "../../generated/policy.ts";
import type { FinancialReportResult, FinancialReportSummary, FinancialReportType } from "../../generated/types.ts";
import { uuidv7 } from "../domain/ids.ts";
import type { Refusal } from "../domain/refusal.ts";
import {
  ACCOUNTS,
  asOfRefusal,
  type BookFacts,
  balanceSheet,
  cashFlow,
  incomeStatement,
  periodRefusal,
  REPORT_AUDIENCE_RULE,
  REPORT_CLASSIFICATION,
  REPORT_TITLES,
  trialBalance,
} from "../domain/reports.ts";
import { writeAudience } from "../repos/document-audiences.ts";
import * as reports from "../repos/reports.ts";
import { requireCaller } from "../rpc/caller.ts";
import type { RpcContext } from "../rpc/context.ts";
import { errorsFor } from "../rpc/service-errors.ts";

/**
 * ReportService (issue 15): financial reports computed from the company's books (issued invoices, approved
 * expenses, confirmed treasury movements; src/domain/reports.ts) and stored as FinancialReport snapshots with a
 * DocumentAudience row. The dispatcher checked company:director and that the caller may act as generated_by.
 */

const reportError = errorsFor("ReportService", "ReportError");

const refused = (r: Refusal<"InvalidInput">) => reportError(r.refusal, r.message, r.details);

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toSummary(row: Omit<FinancialReportRow, "content">): FinancialReportSummary {
  return {
    sid: row.sid,
    company_id: row.company_id,
    report_type: row.report_type,
    title: row.title,
    period_start: iso(row.period_start),
    period_end: iso(row.period_end),
    as_of_date: iso(row.as_of_date),
    generated_by: row.generated_by,
    created_at: row.created_at.toISOString(),
  };
}

function toResult(row: FinancialReportRow): FinancialReportResult {
  return { ...toSummary(row), content_format: "json", content: row.content };
}

interface Window {
  as_of_date: Date | null;
  period_start: Date | null;
  period_end: Date | null;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Loads the books up to `until`, builds the body, stores the report and its audience. */
async function generate(
  ctx: Targeted<RpcContext, ZoneCompanyRow>,
  input: {
    companyId: string;
    generatedBy: string;
    type: FinancialReportType;
    title: string;
    window: Window;
    until: Date;
  },
  build: (facts: BookFacts) => unknown,
): Promise<FinancialReportResult> {
  const { companyId, generatedBy, type, window } = input;
  const company = ctx.target.row;
  const now = ctx.now();
  const facts = await reports.loadBookFacts(ctx.em, companyId, input.until);
  const body = {
    report_type: type,
    company_id: companyId,
    company_name: company.name,
    as_of_date: iso(window.as_of_date),
    period_start: iso(window.period_start),
    period_end: iso(window.period_end),
    generated_at: now.toISOString(),
    chart_of_accounts: Object.values(ACCOUNTS),
    sections: build(facts),
  };
  const row = reports.insertReport(ctx.em, {
    sid: uuidv7(now),
    company_id: companyId,
    report_type: type,
    title: input.title,
    ...window,
    content: JSON.stringify(body),
    generated_by: generatedBy,
    created_at: now,
    updated_at: now,
  });
  writeAudience(
    ctx.em,
    {
      documentRef: row.sid,
      documentType: "financial_report",
      companyId,
      classification: REPORT_CLASSIFICATION,
      rule: REPORT_AUDIENCE_RULE,
      relevantFrom: now,
      createdBy: requireCaller(ctx).userId,
    },
    now,
  );
  return toResult(row);
}

/** A balance sheet or trial balance: the books as of an instant that is not in the future. */
function asOfReport(
  ctx: Targeted<RpcContext, ZoneCompanyRow>,
  params: { company_id: string; as_of_date: string; generated_by: string },
  type: "balance_sheet" | "trial_balance",
  build: (facts: BookFacts, asOf: Date) => unknown,
): Promise<FinancialReportResult> {
  const asOf = new Date(params.as_of_date);
  const bad = asOfRefusal(asOf, ctx.now());
  if (bad) throw refused(bad);
  const window = { as_of_date: asOf, period_start: null, period_end: null };
  const title = `${REPORT_TITLES[type]} as of ${asOf.toISOString()}`;
  const input = { companyId: params.company_id, generatedBy: params.generated_by, type, title, window, until: asOf };
  return generate(ctx, input, (facts) => build(facts, asOf));
}

/** An income statement or cash flow over [period_start, period_end), which ends after it starts and not later than now. */
function periodReport(
  ctx: Targeted<RpcContext, ZoneCompanyRow>,
  params: { company_id: string; period_start: string; period_end: string; generated_by: string },
  type: "income_statement" | "cash_flow",
  build: (facts: BookFacts, start: Date, end: Date) => unknown,
): Promise<FinancialReportResult> {
  const start = new Date(params.period_start);
  const end = new Date(params.period_end);
  const bad = periodRefusal(start, end, ctx.now());
  if (bad) throw refused(bad);
  const window = { as_of_date: null, period_start: start, period_end: end };
  const title = `${REPORT_TITLES[type]} ${day(start)} to ${day(new Date(end.getTime() - 1))}`;
  const input = { companyId: params.company_id, generatedBy: params.generated_by, type, title, window, until: end };
  return generate(ctx, input, (facts) => build(facts, start, end));
}

export const reportService: ReportServiceHandlers<RpcContext> = {
  generateBalanceSheet: (ctx, params) => asOfReport(ctx, params, "balance_sheet", balanceSheet),
  generateIncomeStatement: (ctx, params) => periodReport(ctx, params, "income_statement", incomeStatement),
  generateCashFlow: (ctx, params) => periodReport(ctx, params, "cash_flow", cashFlow),
  generateTrialBalance: (ctx, params) => asOfReport(ctx, params, "trial_balance", trialBalance),

  async getReport(ctx) {
    const row = ctx.target.row;
    const company = await reports.findCompany(ctx.em, row.company_id);
    return {
      ...toResult(row),
      company_name: company?.name ?? row.company_id,
      generated_by_name: await reports.residentDisplayName(ctx.em, row.generated_by),
    };
  },

  async listReports(ctx, { company_id, report_type }) {
    const rows = await reports.listReports(ctx.em, company_id, report_type);
    return { items: rows.map(toSummary) };
  },
};
