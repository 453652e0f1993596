import type { ShareholderData } from "../../generated/types.ts";

/**
 * Share units (issue 29 item 7, docs/decisions.md "Unit and count maxima (issue 29)"): a holding, an offer, a
 * transfer and a company's whole cap table hold at most MAX_UNITS units, each with at most 6 decimals. Counted in
 * whole micro-units (10^-6 of a unit): at most 10^15 of them, below 2^53, so every admitted value, every sum of a
 * cap table and every vote total is an exact integer, and its decimal (at most 15 significant digits) reads back
 * as the same double.
 */

/** The most units a holding, an offer, a transfer or a company's cap table holds (the spec's `maximum`). */
export const MAX_UNITS = 1_000_000_000;

/** Units are kept to 6 decimals. */
export const UNIT_SCALE = 1_000_000;

/** Micro-units of an admitted value (exact: the product is within 0.5 of the integer it stands for). */
export const toMicro = (units: number): number => Math.round(units * UNIT_SCALE);
export const fromMicro = (micro: number): number => micro / UNIT_SCALE;

/** The exact sum of admitted values (in micro-units, back to units). */
export const sumUnits = (...values: number[]): number => fromMicro(values.reduce((sum, v) => sum + toMicro(v), 0));

/** Whether `units` is a finite value from 0 to MAX_UNITS with at most 6 decimals. */
export function isUnitAmount(units: number): boolean {
  if (!Number.isFinite(units) || units < 0 || units > MAX_UNITS) return false;
  return fromMicro(toMicro(units)) === units;
}

export const UNITS_RULE = `units must be 0 to ${MAX_UNITS.toLocaleString("en-US")} with at most 6 decimals`;
export const CAP_TABLE_UNITS_RULE = `the cap table holds at most ${MAX_UNITS.toLocaleString("en-US")} units in all`;

/** The total of units in the cap table, in micro-units. */
export const totalMicroUnits = (table: readonly ShareholderData[]): number =>
  table.reduce((sum, r) => sum + toMicro(r.units), 0);

/** Whether the cap table's rows together stay within MAX_UNITS. */
export const withinUnitMaximum = (table: readonly ShareholderData[]): boolean =>
  totalMicroUnits(table) <= toMicro(MAX_UNITS);
