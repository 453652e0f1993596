import type { EntityManager, RequiredEntityData } from "@mikro-orm/postgresql";
import {
  TaxDocumentEntity,
  type TaxDocumentRow,
  TaxFilingEntity,
  type TaxFilingRow,
} from "../../generated/entities.ts";
import type { TaxFilingStatus } from "../../generated/types.ts";
import { sqlRows } from "../db/sql.ts";
import { uuidv7 } from "../domain/ids.ts";
import { LIVE_FILING_STATUSES } from "../domain/tax.ts";

/** The TaxFiling and TaxDocument tables. */

/** The most filings, and documents of one filing, a list answers (newest first). */
export const TAX_LIST_LIMIT = 1000;

export function findFiling(em: EntityManager, filingId: string): Promise<TaxFilingRow | null> {
  return em.findOne(TaxFilingEntity, { sid: filingId });
}

/** Newest period first, then newest filing; at most TAX_LIST_LIMIT. */
export function listFilings(
  em: EntityManager,
  companyId: string,
  status: TaxFilingStatus | undefined,
): Promise<TaxFilingRow[]> {
  return em.find(
    TaxFilingEntity,
    { company_id: companyId, ...(status ? { status } : {}) },
    { orderBy: { period_start: "desc", sid: "desc" }, limit: TAX_LIST_LIMIT },
  );
}

/**
 * Inserts the filing unless a live one (draft, submitted, accepted) holds the same company, type and period:
 * `on conflict do nothing` on the partial unique index `tax_filing_live_period_unique`, so concurrent creates
 * leave one row. Null when the period is taken.
 */
export async function insertFilingIfPeriodFree(
  em: EntityManager,
  row: Omit<TaxFilingRow, "created_at" | "updated_at"> & { created_at: Date; updated_at: Date },
): Promise<boolean> {
  const columns = Object.keys(row) as (keyof typeof row & string)[];
  const live = LIVE_FILING_STATUSES.map((s) => `'${s}'`).join(", ");
  const inserted = await sqlRows<{ sid: string }>(
    em,
    `insert into "tax_filing" (${columns.map((c) => `"${c}"`).join(", ")})
     values (${columns.map(() => "?").join(", ")})
     on conflict ("company_id", "filing_type", "period_start", "period_end") where "status" in (${live}) do nothing
     returning sid`,
    columns.map((c) => row[c]),
  );
  return inserted.length === 1;
}

/** Changes the figures only while the filing is a draft; false when it no longer is. */
export async function updateDraftFigures(
  em: EntityManager,
  filingId: string,
  figures: Pick<
    TaxFilingRow,
    "gross_revenue" | "cost_of_goods_sold" | "operating_expenses" | "taxable_income" | "tax_rate" | "tax_due"
  >,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(TaxFilingEntity, { sid: filingId, status: "draft" }, { ...figures, updated_at: now });
  return n === 1;
}

export type FilingMoveFields = Partial<
  Pick<TaxFilingRow, "submitted_by" | "submitted_at" | "reference_number" | "rejection_reason">
>;

/** The conditional move `from -> to`: true when this call made it. */
export async function moveFiling(
  em: EntityManager,
  filingId: string,
  from: readonly TaxFilingStatus[],
  to: TaxFilingStatus,
  fields: FilingMoveFields,
  now: Date,
): Promise<boolean> {
  const n = await em.nativeUpdate(
    TaxFilingEntity,
    { sid: filingId, status: { $in: [...from] } },
    { ...fields, status: to, updated_at: now },
  );
  return n === 1;
}

/** A company's filings with what the deadlines need, newest first. */
export function filingPeriods(
  em: EntityManager,
  companyId: string,
): Promise<Pick<TaxFilingRow, "sid" | "filing_type" | "period_start" | "status">[]> {
  return em.find(
    TaxFilingEntity,
    { company_id: companyId },
    { fields: ["sid", "filing_type", "period_start", "status"], orderBy: { sid: "desc" }, disableIdentityMap: true },
  );
}

export function insertDocument(
  em: EntityManager,
  row: Omit<RequiredEntityData<TaxDocumentRow>, "sid">,
  now: Date,
): TaxDocumentRow {
  return em.create(TaxDocumentEntity, { sid: uuidv7(now), ...row });
}

/** A filing's documents, newest first; at most TAX_LIST_LIMIT. */
export function listDocuments(em: EntityManager, filingId: string): Promise<TaxDocumentRow[]> {
  return em.find(TaxDocumentEntity, { filing_id: filingId }, { orderBy: { sid: "desc" }, limit: TAX_LIST_LIMIT });
}
