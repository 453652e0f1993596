import type { TaxFilingRow } from "../../../generated/entities.ts";
import type { TaxServiceHandlers } from "../../../generated/handlers/index.ts";
import { uuidv7 } from "../../domain/ids.ts";
import { isRefusal } from "../../domain/refusal.ts";
import {
  COMPANY_MEMBER_CLASSIFICATION,
  computeFigures,
  draftOnlyRefusal,
  dueDateOf,
  moveRefusal,
  periodRefusal,
  referenceCounterName,
  referenceNumber,
  TAX_FILING_AUDIENCE_RULE,
  TAX_FILING_MOVES,
} from "../../domain/tax.ts";
import { takeNumber } from "../../repos/counters.ts";
import { writeAudience } from "../../repos/document-audiences.ts";
import * as filings from "../../repos/tax-filings.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { recordIfAdmin, refused, taxError, toFilingResult } from "./common.ts";
import { toDocumentSummary } from "./documents.ts";

type H = TaxServiceHandlers<RpcContext>;

/**
 * An amendment names the filing it replaces: same company, type and period, submitted or accepted. It moves to
 * `amended` first (conditional update: of two concurrent amendments one wins), which frees the period.
 */
async function amendOriginal(
  ctx: RpcContext,
  originalId: string,
  period: Pick<TaxFilingRow, "company_id" | "filing_type" | "period_start" | "period_end">,
): Promise<void> {
  const original = await filings.findFiling(ctx.em, originalId);
  if (!original || original.company_id !== period.company_id) throw taxError.notFound("amended filing");
  const samePeriod =
    original.filing_type === period.filing_type &&
    original.period_start.getTime() === period.period_start.getTime() &&
    original.period_end.getTime() === period.period_end.getTime();
  if (!samePeriod) {
    throw taxError("InvalidInput", "an amendment covers the same filing type and period as the filing it amends", {
      field: "amends_filing_id",
    });
  }
  const bad = moveRefusal(original.status, "amend");
  if (bad) throw refused(bad);
  const { from, to } = TAX_FILING_MOVES.amend;
  if (!(await filings.moveFiling(ctx.em, original.sid, from, to, {}, ctx.now()))) {
    throw taxError("InvalidState", "the amended filing changed state meanwhile");
  }
}

export const createFiling: H["createFiling"] = async (ctx, params) => {
  const { company_id, filing_type } = params;
  const now = ctx.now();
  const period_start = new Date(params.period_start);
  const period_end = new Date(params.period_end);
  const badPeriod = periodRefusal(filing_type, period_start, period_end);
  if (badPeriod) throw refused(badPeriod);
  const period = { company_id, filing_type, period_start, period_end };
  const amends = params.amends_filing_id ?? null;
  if (amends !== null) await amendOriginal(ctx, amends, period);
  const row: TaxFilingRow = {
    sid: uuidv7(now),
    ...period,
    status: "draft",
    currency: ctx.config.tax.currency,
    gross_revenue: 0,
    cost_of_goods_sold: 0,
    operating_expenses: 0,
    taxable_income: 0,
    tax_rate: ctx.config.tax.rate,
    tax_due: 0,
    due_date: dueDateOf(period_end, ctx.config.tax.dueDays[filing_type]),
    submitted_by: null,
    submitted_at: null,
    reference_number: null,
    rejection_reason: null,
    amends_filing_id: amends,
    created_at: now,
    updated_at: now,
  };
  if (!(await filings.insertFilingIfPeriodFree(ctx.em, row))) {
    throw taxError("AlreadyExists", "a draft, submitted or accepted filing exists for this period; amend it instead", {
      filing_type,
      period_start: period_start.toISOString(),
    });
  }
  writeAudience(
    ctx.em,
    {
      documentRef: row.sid,
      documentType: "tax_filing",
      companyId: company_id,
      classification: COMPANY_MEMBER_CLASSIFICATION,
      rule: TAX_FILING_AUDIENCE_RULE,
      relevantFrom: now,
      createdBy: requireCaller(ctx).userId,
    },
    now,
  );
  recordIfAdmin(ctx, "create_tax_filing", row, { filing_type, amends_filing_id: amends });
  return toFilingResult(row);
};

export const getFiling: H["getFiling"] = async (ctx) => {
  const row = ctx.target.row;
  const documents = await filings.listDocuments(ctx.em, row.sid);
  return { ...toFilingResult(row), documents: documents.map(toDocumentSummary) };
};

export const listFilings: H["listFilings"] = async (ctx, { company_id, status }) => {
  const rows = await filings.listFilings(ctx.em, company_id, status);
  return { items: rows.map(toFilingResult) };
};

export const updateFiling: H["updateFiling"] = async (ctx, params) => {
  const row = ctx.target.row;
  const notDraft = draftOnlyRefusal(row.status);
  if (notDraft) throw refused(notDraft);
  // The rate in force when the figures are set is snapshotted with them; submission freezes both.
  const tax_rate = ctx.config.tax.rate;
  const figures = computeFigures(params, tax_rate);
  if (isRefusal(figures)) throw refused(figures);
  const now = ctx.now();
  if (!(await filings.updateDraftFigures(ctx.em, row.sid, { ...figures, tax_rate }, now))) {
    throw taxError("InvalidState", "the filing is no longer a draft");
  }
  recordIfAdmin(ctx, "update_tax_filing", row, { ...figures, tax_rate });
  return toFilingResult({ ...row, ...figures, tax_rate, updated_at: now });
};

export const submitFiling: H["submitFiling"] = async (ctx, { submitted_by }) => {
  const row = ctx.target.row;
  const bad = moveRefusal(row.status, "submit");
  if (bad) throw refused(bad);
  const now = ctx.now();
  const year = now.getUTCFullYear();
  const prefix = ctx.config.idPrefix;
  const fields = {
    submitted_by,
    submitted_at: now,
    reference_number: referenceNumber(prefix, year, await takeNumber(ctx.em, referenceCounterName(prefix, year), now)),
  };
  const { from, to } = TAX_FILING_MOVES.submit;
  if (!(await filings.moveFiling(ctx.em, row.sid, from, to, fields, now))) {
    throw taxError("InvalidState", "the filing is no longer a draft");
  }
  return toFilingResult({ ...row, ...fields, status: to, updated_at: now });
};
