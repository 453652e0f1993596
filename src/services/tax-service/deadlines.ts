import type { TaxServiceHandlers } from "../../../generated/handlers/index.ts";
import type { TaxFilingPeriod } from "../../../generated/types.ts";
import { deadlines } from "../../domain/tax.ts";
import { findCompany } from "../../repos/reports.ts";
import { filingPeriods } from "../../repos/tax-filings.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { taxError } from "./common.ts";

type H = TaxServiceHandlers<RpcContext>;

/** The configured period types, plus any type the company has filed under. */
export const getDeadlines: H["getDeadlines"] = async (ctx, { company_id }) => {
  const company = await findCompany(ctx.em, company_id);
  if (!company) throw taxError.notFound("company");
  const filings = await filingPeriods(ctx.em, company_id);
  const types = new Set<TaxFilingPeriod>([...ctx.config.tax.requiredPeriods, ...filings.map((f) => f.filing_type)]);
  const items = deadlines({
    types: [...types],
    filings,
    companyCreatedAt: company.created_at,
    now: ctx.now(),
    dueDays: ctx.config.tax.dueDays,
  });
  return {
    company_id,
    items: items.map((d) => ({
      filing_type: d.filing_type,
      period_start: d.period_start.toISOString(),
      period_end: d.period_end.toISOString(),
      due_date: d.due_date.toISOString(),
      filing_id: d.filing_id,
      filing_status: d.filing_status,
      overdue: d.overdue,
    })),
  };
};
