import type { TaxFilingPeriod, TaxFilingStatus } from "../../generated/types.ts";
import { fromCents, isValidAmount, multiplyMoney, roundMoney, toCents } from "./money.ts";
import { type Refusal, refuse } from "./refusal.ts";

/** The periods a tax filing covers (TaxFilingPeriod), in the order deadlines list them. */
export const TAX_PERIODS = ["monthly", "quarterly", "annual"] as const;
export type TaxPeriod = (typeof TAX_PERIODS)[number];

/**
 * Tax filing rules (issue 15): calendar periods per filing type (UTC), deadlines, the figures the server computes,
 * and the state machine
 *   draft -> submitted (submit_filing) -> accepted | rejected (administrator review)
 *   submitted | accepted -> amended (a new filing for the same period names it in amends_filing_id).
 * Every TaxFilingStatus value is reached by one of these moves.
 */

/** The moves of a filing: the states each may start from and the state it reaches. */
export const TAX_FILING_MOVES = {
  submit: { from: ["draft"], to: "submitted" },
  accept: { from: ["submitted"], to: "accepted" },
  reject: { from: ["submitted"], to: "rejected" },
  amend: { from: ["submitted", "accepted"], to: "amended" },
} as const satisfies Record<string, { from: readonly TaxFilingStatus[]; to: TaxFilingStatus }>;

export type TaxFilingMove = keyof typeof TAX_FILING_MOVES;

/** States in which a filing holds its period (one at a time: the partial unique index `tax_filing_live_period`). */
export const LIVE_FILING_STATUSES: readonly TaxFilingStatus[] = ["draft", "submitted", "accepted"];

/** States in which the period counts as filed for the deadlines. */
export const FILED_STATUSES: readonly TaxFilingStatus[] = ["submitted", "accepted", "amended"];

export function moveRefusal(status: TaxFilingStatus, move: TaxFilingMove): Refusal<"InvalidState"> | null {
  const { from, to } = TAX_FILING_MOVES[move];
  if ((from as readonly TaxFilingStatus[]).includes(status)) return null;
  return refuse("InvalidState", `only a ${from.join(" or ")} filing can become ${to}; this one is ${status}`, {
    status,
    required: from,
  });
}

/** Figures change in a draft only. */
export function draftOnlyRefusal(status: TaxFilingStatus): Refusal<"InvalidState"> | null {
  if (status === "draft") return null;
  return refuse("InvalidState", `only a draft filing's figures can change; this one is ${status}`, {
    status,
    required: "draft",
  });
}

/** Calendar months per period type. */
const PERIOD_MONTHS: Record<TaxFilingPeriod, number> = { monthly: 1, quarterly: 3, annual: 12 };

function addMonths(date: Date, months: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
}

/** The start of the period of `type` that contains `at` (UTC). */
export function periodStartOf(type: TaxFilingPeriod, at: Date): Date {
  const months = PERIOD_MONTHS[type];
  const month = at.getUTCMonth() - (at.getUTCMonth() % months);
  return new Date(Date.UTC(at.getUTCFullYear(), month, 1));
}

/** The exclusive end of the period of `type` starting at `start`. */
export function periodEndOf(type: TaxFilingPeriod, start: Date): Date {
  return addMonths(start, PERIOD_MONTHS[type]);
}

/** A filing's period must be exactly one calendar period of its type: starting at its first instant, one long. */
export function periodRefusal(type: TaxFilingPeriod, start: Date, end: Date): Refusal<"InvalidInput"> | null {
  const expectedStart = periodStartOf(type, start);
  if (expectedStart.getTime() === start.getTime() && periodEndOf(type, start).getTime() === end.getTime()) {
    return null;
  }
  return refuse(
    "InvalidInput",
    `a ${type} filing covers one calendar ${type === "annual" ? "year" : type === "monthly" ? "month" : "quarter"} in UTC: period_start at its first instant, period_end at the next period's start`,
    { filing_type: type, period_start: start.toISOString(), period_end: end.toISOString() },
  );
}

const DAY_MS = 24 * 3600 * 1000;

/** The submission deadline: `dueDays` days after the period's (exclusive) end. */
export function dueDateOf(periodEnd: Date, dueDays: number): Date {
  return new Date(periodEnd.getTime() + dueDays * DAY_MS);
}

export interface FilingFigures {
  gross_revenue: number;
  cost_of_goods_sold: number;
  operating_expenses: number;
}

export interface ComputedFigures extends FilingFigures {
  taxable_income: number;
  tax_due: number;
}

/** A figure: 0 or more, at most two decimals, exact in cents. */
function figureRefusal(field: string, value: number): Refusal<"InvalidAmount"> | null {
  if (value === 0 || isValidAmount(value)) return null;
  return refuse("InvalidAmount", `${field} must be 0 or more with at most 2 decimals`, { field, amount: value });
}

/**
 * The figures as stored, with taxable_income = max(0, revenue - cost of goods - operating expenses) and
 * tax_due = taxable_income x rate rounded half to even to the cent; or the first bad figure.
 */
export function computeFigures(input: FilingFigures, rate: number): ComputedFigures | Refusal<"InvalidAmount"> {
  for (const field of ["gross_revenue", "cost_of_goods_sold", "operating_expenses"] as const) {
    const bad = figureRefusal(field, input[field]);
    if (bad) return bad;
  }
  const taxableCents = Math.max(
    0,
    toCents(input.gross_revenue) - toCents(input.cost_of_goods_sold) - toCents(input.operating_expenses),
  );
  const taxable = fromCents(taxableCents);
  return {
    gross_revenue: roundMoney(input.gross_revenue),
    cost_of_goods_sold: roundMoney(input.cost_of_goods_sold),
    operating_expenses: roundMoney(input.operating_expenses),
    taxable_income: taxable,
    tax_due: multiplyMoney(taxable, rate),
  };
}

/** gross_revenue - cost_of_goods_sold (derived, may be negative). */
export function grossProfit(figures: Pick<FilingFigures, "gross_revenue" | "cost_of_goods_sold">): number {
  return fromCents(toCents(figures.gross_revenue) - toCents(figures.cost_of_goods_sold));
}

/** The filing reference issued on submission: `<PREFIX>-TAX-<year>-<6 digits>` from a gap-free counter. */
export function referenceNumber(prefix: string, year: number, n: number): string {
  return `${prefix}-TAX-${year}-${String(n).padStart(6, "0")}`;
}

export function referenceCounterName(prefix: string, year: number): string {
  return `${prefix}-TAX-${year}`;
}

/** A rejection reason: trimmed, not blank. */
export function rejectionReason(raw: string): string | Refusal<"InvalidInput"> {
  const reason = raw.trim();
  return reason.length > 0 ? reason : refuse("InvalidInput", "a rejection needs a reason", { field: "reason" });
}

// ---- Deadlines ----

/** How far back get_deadlines looks for unfiled periods (and never before the company existed). */
export const DEADLINE_LOOKBACK_YEARS = 10;

export interface FilingOfPeriod {
  sid: string;
  filing_type: TaxFilingPeriod;
  period_start: Date;
  status: TaxFilingStatus;
}

export interface Deadline {
  filing_type: TaxFilingPeriod;
  period_start: Date;
  period_end: Date;
  due_date: Date;
  filing_id: string | null;
  filing_status: TaxFilingStatus | null;
  overdue: boolean;
}

/** The filing that speaks for a period: the live one, else the newest (filings come newest first). */
function filingOf(filings: readonly FilingOfPeriod[]): FilingOfPeriod | null {
  return filings.find((f) => LIVE_FILING_STATUSES.includes(f.status)) ?? filings[0] ?? null;
}

/**
 * Every past period (ended by `now`, started after the company was created and within DEADLINE_LOOKBACK_YEARS) of
 * each type that has no submitted, accepted or amended filing, plus the current period of each type; by due date.
 */
export function deadlines(input: {
  types: readonly TaxFilingPeriod[];
  filings: readonly FilingOfPeriod[];
  companyCreatedAt: Date;
  now: Date;
  dueDays: Record<TaxFilingPeriod, number>;
}): Deadline[] {
  const { now } = input;
  const lookback = new Date(Date.UTC(now.getUTCFullYear() - DEADLINE_LOOKBACK_YEARS, now.getUTCMonth(), 1));
  const from = input.companyCreatedAt > lookback ? input.companyCreatedAt : lookback;
  const out: Deadline[] = [];
  for (const type of input.types) {
    const current = periodStartOf(type, now);
    for (let start = periodStartOf(type, from); start <= current; start = periodEndOf(type, start)) {
      const ofPeriod = input.filings.filter(
        (f) => f.filing_type === type && f.period_start.getTime() === start.getTime(),
      );
      const filed = ofPeriod.some((f) => FILED_STATUSES.includes(f.status));
      const isCurrent = start.getTime() === current.getTime();
      if (filed && !isCurrent) continue;
      const end = periodEndOf(type, start);
      const due = dueDateOf(end, input.dueDays[type]);
      const filing = filingOf(ofPeriod);
      out.push({
        filing_type: type,
        period_start: start,
        period_end: end,
        due_date: due,
        filing_id: filing?.sid ?? null,
        filing_status: filing?.status ?? null,
        overdue: !filed && due <= now,
      });
    }
  }
  const order: Record<TaxFilingPeriod, number> = { monthly: 0, quarterly: 1, annual: 2 };
  return out.sort((a, b) => a.due_date.getTime() - b.due_date.getTime() || order[a.filing_type] - order[b.filing_type]);
}

// ---- Documents and audiences ----

export const TAX_DOCUMENT_TYPES = ["tax_return", "computation", "receipt"] as const;
export type TaxDocumentType = (typeof TAX_DOCUMENT_TYPES)[number];

/** A receipt acknowledges a submission: only for a filing that was submitted. */
export function documentRefusal(
  documentType: string,
  submittedAt: Date | null,
): Refusal<"InvalidInput" | "InvalidState"> | null {
  if (!(TAX_DOCUMENT_TYPES as readonly string[]).includes(documentType)) {
    return refuse("InvalidInput", `unknown document_type "${documentType.slice(0, 40)}"`, {
      field: "document_type",
      known: TAX_DOCUMENT_TYPES,
    });
  }
  if (documentType === "receipt" && submittedAt === null) {
    return refuse("InvalidState", "a receipt is issued only for a submitted filing", { document_type: documentType });
  }
  return null;
}

/** Every member tier: any current member of the company may read filings, their documents and reports. */
export const COMPANY_MEMBER_CLASSIFICATION: readonly string[] = [
  "director",
  "founder",
  "shareholder",
  "founding_member",
  "platinum_member",
];

export const TAX_FILING_AUDIENCE_RULE = "tax_filing_company_members";
export const TAX_DOCUMENT_AUDIENCE_RULE = "tax_document_company_members";
