import { createHash } from "node:crypto";
import type { TaxDocumentRow, TaxFilingRow } from "../../../generated/entities.ts";
import type { TaxServiceHandlers } from "../../../generated/handlers/index.ts";
import type { TaxDocumentResult, TaxDocumentSummary } from "../../../generated/types.ts";
import {
  COMPANY_MEMBER_CLASSIFICATION,
  documentRefusal,
  grossProfit,
  TAX_DOCUMENT_AUDIENCE_RULE,
  type TaxDocumentType,
} from "../../domain/tax.ts";
import { markdownText as md } from "../../domain/text-render.ts";
import { writeAudience } from "../../repos/document-audiences.ts";
import { findCompany } from "../../repos/reports.ts";
import * as filings from "../../repos/tax-filings.ts";
import { requireCaller } from "../../rpc/caller.ts";
import type { RpcContext } from "../../rpc/context.ts";
import { recordIfAdmin, refused } from "./common.ts";

type H = TaxServiceHandlers<RpcContext>;

/** Tax documents: markdown rendered from the filing's current figures, stored with the SHA-256 of the text. */

const TITLES: Record<TaxDocumentType, string> = {
  tax_return: "Tax return",
  computation: "Tax computation",
  receipt: "Filing receipt",
};

const day = (d: Date) => d.toISOString().slice(0, 10);
const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;

function periodLine(f: TaxFilingRow): string {
  const lastDay = new Date(f.period_end.getTime() - 1);
  return `${f.filing_type} period ${day(f.period_start)} to ${day(lastDay)}`;
}

/**
 * The document's markdown: a pure function of the filing and company name, so the same state hashes the same. Text
 * from the rows (the company name, references) goes through `markdownText` (src/domain/text-render.ts).
 */
export function renderTaxDocument(type: TaxDocumentType, f: TaxFilingRow, companyName: string): string {
  const c = f.currency;
  const head = [
    `# ${TITLES[type]}`,
    "",
    `Company: ${md(companyName)} (${md(f.company_id)})`,
    `Filing: ${md(f.sid)}`,
    `Period: ${periodLine(f)}`,
  ];
  if (f.amends_filing_id) head.push(`Amends filing: ${md(f.amends_filing_id)}`);
  const figures = [
    `| Gross revenue | ${money(f.gross_revenue, c)} |`,
    `| Cost of goods sold | ${money(f.cost_of_goods_sold, c)} |`,
    `| Gross profit | ${money(grossProfit(f), c)} |`,
    `| Operating expenses | ${money(f.operating_expenses, c)} |`,
    `| Taxable income | ${money(f.taxable_income, c)} |`,
  ];
  const rate = `${(f.tax_rate * 100).toFixed(4).replace(/\.?0+$/, "")}%`;
  if (type === "tax_return") {
    return [
      ...head,
      `Due date: ${day(f.due_date)}`,
      `Status: ${f.status}`,
      "",
      "| Item | Amount |",
      "|---|---|",
      ...figures,
      `| Tax due (${rate}) | ${money(f.tax_due, c)} |`,
      "",
    ].join("\n");
  }
  if (type === "computation") {
    return [
      ...head,
      "",
      "| Step | Amount |",
      "|---|---|",
      ...figures,
      "",
      `Taxable income = max(0, gross revenue - cost of goods sold - operating expenses) = ${money(f.taxable_income, c)}`,
      `Tax due = taxable income x ${rate}, rounded half to even to the cent = ${money(f.tax_due, c)}`,
      "",
    ].join("\n");
  }
  return [
    ...head,
    `Reference number: ${f.reference_number === null ? "-" : md(f.reference_number)}`,
    `Submitted at: ${f.submitted_at?.toISOString() ?? "-"}`,
    `Submitted by: ${f.submitted_by === null ? "-" : md(f.submitted_by)}`,
    `Status: ${f.status}`,
    `Tax due: ${money(f.tax_due, c)}`,
    "",
  ].join("\n");
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export function toDocumentSummary(row: TaxDocumentRow): TaxDocumentSummary {
  return {
    sid: row.sid,
    filing_id: row.filing_id,
    company_id: row.company_id,
    document_type: row.document_type,
    title: row.title,
    content_hash: row.content_hash,
    created_at: row.created_at.toISOString(),
  };
}

function toDocumentResult(row: TaxDocumentRow): TaxDocumentResult {
  return { ...toDocumentSummary(row), content_format: "markdown", content: row.content };
}

export const generateDocument: H["generateDocument"] = async (ctx, { document_type }) => {
  const filing = ctx.target.row;
  const bad = documentRefusal(document_type, filing.submitted_at);
  if (bad) throw refused(bad);
  const type = document_type as TaxDocumentType;
  const company = await findCompany(ctx.em, filing.company_id);
  const content = renderTaxDocument(type, filing, company?.name ?? filing.company_id);
  const now = ctx.now();
  const row = filings.insertDocument(
    ctx.em,
    {
      filing_id: filing.sid,
      company_id: filing.company_id,
      document_type: type,
      title: `${TITLES[type]}: ${periodLine(filing)}`,
      content,
      content_hash: sha256Hex(content),
      created_at: now,
      updated_at: now,
    },
    now,
  );
  writeAudience(
    ctx.em,
    {
      documentRef: row.sid,
      documentType: "tax_document",
      companyId: filing.company_id,
      classification: COMPANY_MEMBER_CLASSIFICATION,
      rule: TAX_DOCUMENT_AUDIENCE_RULE,
      relevantFrom: now,
      createdBy: requireCaller(ctx).userId,
    },
    now,
  );
  recordIfAdmin(ctx, "generate_tax_document", filing, { document_id: row.sid, document_type: type });
  return toDocumentResult(row);
};

export const listDocuments: H["listDocuments"] = async (ctx) => {
  const filing = ctx.target.row;
  const rows = await filings.listDocuments(ctx.em, filing.sid);
  return { items: rows.map(toDocumentResult) };
};
