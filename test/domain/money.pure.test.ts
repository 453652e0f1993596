import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  addMoney,
  fromCents,
  isValidAmount,
  moneyFromDb,
  multiplyMoney,
  roundDecimal,
  roundDecimalDigits,
  roundMoney,
  subtractMoney,
  toCents,
} from "../../src/domain/money.ts";
import { RESIDENT_PLANS, residentPlanPrice } from "../../src/domain/pricing.ts";

describe("money", () => {
  test.each([
    [1.005, 1.0],
    [1.015, 1.02],
    [2.5, 2.5],
    [0.125, 0.12],
    [0.135, 0.14],
    [10.1, 10.1],
    [-1.005, -1.0],
    [-0.135, -0.14],
    [0.004999, 0],
    [1e-7, 0],
    [123456789.125, 123456789.12],
  ])("roundMoney(%f) rounds half to even on cents: %f", (input, expected) => {
    expect(roundMoney(input)).toBe(expected);
  });

  test("amounts past exact cents are refused, not rounded silently", () => {
    expect(() => roundMoney(1.1e21)).toThrow(RangeError);
    expect(() => roundMoney(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  test("0.1 + 0.2 credits is 0.30", () => {
    expect(0.1 + 0.2).not.toBe(0.3); // what doubles do
    expect(addMoney(0.1, 0.2)).toBe(0.3);
    expect(toCents(addMoney(0.1, 0.2))).toBe(30);
  });

  test("1,000 debits of 0.01 sum exactly and take 10.00 to exactly 0", () => {
    let balance = 10;
    let spent = 0;
    for (let i = 0; i < 1000; i++) {
      balance = subtractMoney(balance, 0.01);
      spent = addMoney(spent, 0.01);
    }
    expect(balance).toBe(0);
    expect(spent).toBe(10);
  });

  test("multiplying rounds half to even once, on the cents", () => {
    expect(multiplyMoney(120, 0.85)).toBe(102);
    expect(multiplyMoney(0.25, 0.5)).toBe(0.12);
    expect(multiplyMoney(0.35, 0.5)).toBe(0.18);
    expect(multiplyMoney(19.99, 3)).toBe(59.97);
  });

  test("valid amounts are positive, exact to the cent and bounded", () => {
    expect(isValidAmount(0.01)).toBe(true);
    expect(isValidAmount(10)).toBe(true);
    expect(isValidAmount(0)).toBe(false);
    expect(isValidAmount(-1)).toBe(false);
    expect(isValidAmount(0.001)).toBe(false);
    expect(isValidAmount(Number.NaN)).toBe(false);
    expect(isValidAmount(1e15)).toBe(false);
  });

  test("numeric columns read by raw SQL come back as numbers", () => {
    expect(moneyFromDb("12.50")).toBe(12.5);
    expect(moneyFromDb("0.30")).toBe(0.3);
    expect(moneyFromDb(7)).toBe(7);
  });

  test("property: sums of cents are exact and order does not matter", () => {
    const amount = fc.integer({ min: -10_000_000, max: 10_000_000 }).map(fromCents);
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 50 }), (amounts) => {
        const cents = amounts.reduce((s, a) => s + Math.round(a * 100), 0);
        expect(toCents(addMoney(...amounts))).toBe(cents);
        expect(addMoney(...amounts)).toBe(addMoney(...[...amounts].reverse()));
      }),
    );
  });

  test("property: rounding is idempotent and never moves more than half a cent", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (x) => {
        const r = roundMoney(x);
        expect(roundMoney(r)).toBe(r);
        expect(Math.abs(r - x)).toBeLessThanOrEqual(0.005 + 1e-6);
      }),
    );
  });

  test("a plan costs monthly fee x months less its duration discount", () => {
    const year = RESIDENT_PLANS.find((p) => p.plan === "1_year")!;
    expect(residentPlanPrice(year, 10)).toEqual({
      plan: "1_year",
      months: 12,
      base_amount: 120,
      discount_rate: 0.15,
      amount: 102,
    });
  });
  describe("the exact shortcut of roundDecimal agrees with the digit rounding", () => {
    test.each([
      [1.005, 2],
      [1.015, 2],
      [-1.005, 2],
      [0.125, 2],
      [2.5, 0],
      [-2.5, 0],
      [3.5, 0],
      [-0, 2],
      [0.1 + 0.2, 2],
      [123456789012.34, 2],
      [9_999_999_999_999.99, 2],
      [90_000_000_000_000, 2],
      [1e21, 0],
      [5e-324, 2],
    ])("%s at %i places", (value, places) => {
      expect(Object.is(roundDecimal(value, places), roundDecimalDigits(value, places))).toBe(true);
    });

    test("on cents, on any double and on products of cents and rates", () => {
      const values = fc.oneof(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).map((c) => c / 100),
        fc.double({ min: -1e16, max: 1e16, noNaN: true }),
        fc
          .tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ min: 0, max: 2, noNaN: true }))
          .map(([c, r]) => c * r),
      );
      fc.assert(
        fc.property(values, fc.constantFrom(0, 1, 2), (value, places) => {
          expect(Object.is(roundDecimal(value, places), roundDecimalDigits(value, places))).toBe(true);
        }),
        { numRuns: 5_000 },
      );
    });
  });
});
