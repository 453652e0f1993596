/**
 * Money: exact to the cent. Amounts travel and are stored in major units (numeric(18,2) columns, JSON numbers);
 * every computation runs on integer cents, so sums and differences never drift (0.1 + 0.2 is 0.30, a thousand
 * debits of 0.01 sum to exactly 10.00). Rounding is half to even on the decimal the number stands for
 * (API.md "Values"): 1.005 becomes 1.00 and 1.015 becomes 1.02, as a person reading them would expect.
 */

/** Integer cents; JavaScript numbers hold them exactly up to 2^53 (about 90 trillion major units). */
export type Cents = number;

/** The largest amount in major units that stays exact in cents and fits numeric(18,2). */
export const MAX_MONEY = 90_000_000_000_000;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

const SCALES = [1, 10, 100];

/** Below 10^15 units, distinct decimals of that many digits are distinct doubles (IEEE 754 DBL_DIG = 15). */
const EXACT_UNITS = 1e15;

/**
 * Rounds the decimal written by `String(value)` (the shortest text that reads back as the same number) to an
 * integer number of units of 10^-places, half to even. Works on digits, never on binary fractions.
 *
 * Most amounts already have at most `places` decimals: when `value` is the double nearest to `units / 10^places`
 * for the integer `units` it rounds to (and `units` has at most 15 digits, so no other decimal of as many digits
 * reads back as the same double), `String(value)` spells exactly that decimal and `units` is the answer: no text.
 */
export function roundDecimal(value: number, places: number): number {
  const scale = SCALES[places];
  if (scale !== undefined) {
    const units = Math.round(value * scale);
    if (units / scale === value && Math.abs(units) < EXACT_UNITS) return units === 0 ? 0 : units;
  }
  return roundDecimalDigits(value, places);
}

/** The same rounding on the digits of `String(value)`: the definition, used whenever the shortcut does not apply. */
export function roundDecimalDigits(value: number, places: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  const match = DECIMAL.exec(String(value));
  if (!match) throw new RangeError(`not a decimal amount: ${value}`);
  const [, sign, whole = "", fraction = "", exponent = "0"] = match;
  // Digits of |value| with the decimal point moved `places` to the right: integer part, then the rest.
  const digits = whole + fraction;
  const point = whole.length + Number(exponent) + places;
  const padded = point > digits.length ? digits.padEnd(point, "0") : digits;
  const integerPart = point <= 0 ? "0" : padded.slice(0, point);
  const rest = point <= 0 ? "0".repeat(-point) + padded : padded.slice(point);
  let units = Number(integerPart);
  const first = rest.charCodeAt(0) - 48;
  const tail = rest.slice(1).replace(/0+$/, "");
  if (first > 5 || (first === 5 && (tail.length > 0 || units % 2 === 1))) units += 1;
  return sign === "-" && units !== 0 ? -units : units;
}

/** Major units to integer cents, half to even. */
export function toCents(amount: number): Cents {
  return roundDecimal(amount, 2);
}

/** Integer cents to major units (the nearest double, which prints as the exact two-decimal value). */
export function fromCents(cents: Cents): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer: ${cents}`);
  return cents / 100;
}

/** Rounds to cents half to even, as money is stored. */
export function roundMoney(amount: number): number {
  return fromCents(toCents(amount));
}

/** The exact sum of amounts in major units. */
export function addMoney(...amounts: number[]): number {
  return fromCents(amounts.reduce((sum, a) => sum + toCents(a), 0));
}

/** a - b, exactly. */
export function subtractMoney(a: number, b: number): number {
  return fromCents(toCents(a) - toCents(b));
}

/** An amount times a rate or a count (a discount, a tax rate, months), rounded half to even to the cent. */
export function multiplyMoney(amount: number, factor: number): number {
  return fromCents(roundDecimal(toCents(amount) * factor, 0));
}

/** Whether an amount is positive, has at most two decimals, and stays exact (what a debit or a top-up takes). */
export function isValidAmount(amount: number): boolean {
  return Number.isFinite(amount) && amount > 0 && amount <= MAX_MONEY && roundMoney(amount) === amount;
}

/** A numeric column read by raw SQL (a string such as "12.50") as major units. */
export function moneyFromDb(value: string | number): number {
  return roundMoney(typeof value === "number" ? value : Number(value));
}
