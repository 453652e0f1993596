import type { DividendStatus, ShareholderData } from "../../generated/types.ts";
import type { Cents } from "./money.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { toMicro } from "./units.ts";

/**
 * Dividends (issue 17, docs/decisions.md "Share transfers and dividends"): the split of a total by ownership, in
 * integer cents by the largest-remainder method, so the payments sum exactly to the total.
 */

export interface Holding {
  recipientId: string;
  /** Weight: units held (any non-negative number; compared in micro-units). */
  units: number;
}

export interface Share {
  recipientId: string;
  cents: Cents;
  /** Share of the units, 0 to 100, rounded to 6 decimals (what DividendPayment.ownership_percentage stores). */
  ownershipPercentage: number;
}

/**
 * Splits `total` cents across holdings pro rata to their units: each gets floor(total x units / all units), and
 * the cents left over go one each to the largest remainders (ties: the earlier holding). Holdings with no units get
 * nothing and are left out. Exact integer arithmetic (BigInt), so the shares always sum to `total`.
 */
export function splitByOwnership(total: Cents, holdings: readonly Holding[]): Share[] {
  const held = holdings.map((h) => ({ ...h, weight: BigInt(toMicro(h.units)) })).filter((h) => h.weight > 0n);
  const all = held.reduce((s, h) => s + h.weight, 0n);
  if (all === 0n) return [];
  const amount = BigInt(total);
  const parts = held.map((h, index) => {
    const product = amount * h.weight;
    return { h, index, floor: product / all, remainder: product % all };
  });
  let left = amount - parts.reduce((s, p) => s + p.floor, 0n);
  const byRemainder = [...parts].sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  const extra = new Set<number>();
  for (const p of byRemainder) {
    if (left === 0n) break;
    extra.add(p.index);
    left -= 1n;
  }
  return parts.map((p) => ({
    recipientId: p.h.recipientId,
    cents: Number(p.floor + (extra.has(p.index) ? 1n : 0n)),
    ownershipPercentage: Number((p.h.weight * 100_000_000n * 2n + all) / (all * 2n)) / 1_000_000,
  }));
}

/**
 * The holdings a dividend is split over: every cap-table row with units above 0. A row holding units without a
 * holder id (not yet bound to a resident) cannot be paid, so the split is refused rather than handing its share to
 * the others; so is a cap table with no units at all.
 */
export function dividendHoldings(table: readonly ShareholderData[]): Holding[] | Refusal<"InvalidInput"> {
  const rows = table.filter((r) => r.units > 0);
  if (rows.some((r) => r.resident_id === null)) {
    return refuse("InvalidInput", "the cap table holds units not bound to a holder; bind them before a dividend", {
      field: "company_id",
    });
  }
  if (rows.length === 0) return refuse("InvalidInput", "the cap table holds no units", { field: "company_id" });
  return rows.map((r) => ({ recipientId: r.resident_id as string, units: r.units }));
}

/** InvalidInput unless the distribution date is now or later. */
export function distributionDateRefusal(date: Date, now: Date): Refusal<"InvalidInput"> | null {
  if (Number.isNaN(date.getTime()))
    return refuse("InvalidInput", "distribution_date is not a date", { field: "distribution_date" });
  if (date.getTime() < now.getTime()) {
    return refuse("InvalidInput", "distribution_date is in the past", { field: "distribution_date" });
  }
  return null;
}

/** Whether `execute_dividend` may pay out now: approved (or proposed with a passed proposal) and due. */
export function executionRefusal(
  status: DividendStatus,
  proposalPassed: boolean,
  distributionDate: Date,
  now: Date,
): Refusal<"InvalidState"> | null {
  const payable = status === "approved" || (status === "proposed" && proposalPassed);
  if (!payable) {
    return refuse(
      "InvalidState",
      status === "proposed" ? "the dividend's proposal has not passed" : `a ${status} dividend is not paid out`,
      { status },
    );
  }
  if (distributionDate.getTime() > now.getTime()) {
    return refuse("InvalidState", "the distribution date has not come", {
      distribution_date: distributionDate.toISOString(),
    });
  }
  return null;
}
