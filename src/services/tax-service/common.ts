import type { TaxFilingRow } from "../../../generated/entities.ts";
import type { TaxFilingResult } from "../../../generated/types.ts";
import type { Refusal } from "../../domain/refusal.ts";
import { grossProfit } from "../../domain/tax.ts";
import * as filings from "../../repos/tax-filings.ts";
import { recordAdminAction } from "../../rpc/admin-actions.ts";
import { requireCaller } from "../../rpc/caller.ts";
import { isAdminSession, type RpcContext } from "../../rpc/context.ts";
import { errorsFor } from "../../rpc/service-errors.ts";

/**
 * What the TaxService use cases share: the error factory, the result mapper. The dispatcher loads a filing named by
 * `filing_id` and checks its company's role rule and status (x-target TaxFiling, docs/authorization.md).
 */

export const taxError = errorsFor("TaxService", "TaxError");

export function refused(r: Refusal<"InvalidInput" | "InvalidState" | "InvalidAmount">): Error {
  return taxError(r.refusal, r.message, r.details);
}

export function toFilingResult(row: TaxFilingRow): TaxFilingResult {
  return {
    sid: row.sid,
    company_id: row.company_id,
    filing_type: row.filing_type,
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    due_date: row.due_date.toISOString(),
    status: row.status,
    currency: row.currency,
    gross_revenue: row.gross_revenue,
    cost_of_goods_sold: row.cost_of_goods_sold,
    operating_expenses: row.operating_expenses,
    gross_profit: grossProfit(row),
    taxable_income: row.taxable_income,
    tax_rate: row.tax_rate,
    tax_due: row.tax_due,
    submitted_by: row.submitted_by,
    submitted_at: row.submitted_at?.toISOString() ?? null,
    reference_number: row.reference_number,
    rejection_reason: row.rejection_reason,
    amends_filing_id: row.amends_filing_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function loadFiling(ctx: RpcContext, filingId: string): Promise<TaxFilingRow> {
  const row = await filings.findFiling(ctx.em, filingId);
  if (!row) throw taxError.notFound("filing");
  return row;
}

/** An administrator's write on a company's filing (the dispatcher let the session through), recorded. */
export function recordIfAdmin(ctx: RpcContext, action: string, row: TaxFilingRow, details: Record<string, unknown>) {
  if (!isAdminSession(requireCaller(ctx))) return;
  recordAdminAction(ctx, {
    action,
    targetType: "tax_filing",
    targetId: row.sid,
    details: { company_id: row.company_id, ...details },
  });
}
