import { describe, expect, test } from "vitest";
import type { TaxFilingStatus } from "../../generated/types.ts";
import { loadConfig } from "../../src/config.ts";
import {
  computeFigures,
  deadlines,
  documentRefusal,
  dueDateOf,
  moveRefusal,
  periodEndOf,
  periodRefusal,
  periodStartOf,
  referenceNumber,
  TAX_FILING_MOVES,
} from "../../src/domain/tax.ts";

const d = (iso: string) => new Date(iso);

describe("periods", () => {
  test("calendar month, quarter and year in UTC", () => {
    const at = d("2026-08-17T13:00:00.000Z");
    expect(periodStartOf("monthly", at).toISOString()).toBe("2026-08-01T00:00:00.000Z");
    expect(periodStartOf("quarterly", at).toISOString()).toBe("2026-07-01T00:00:00.000Z");
    expect(periodStartOf("annual", at).toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(periodEndOf("quarterly", d("2026-10-01T00:00:00.000Z")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(periodEndOf("monthly", d("2026-12-01T00:00:00.000Z")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  test("a filing's period must be exactly one period of its type", () => {
    const ok: [Parameters<typeof periodRefusal>[0], string, string][] = [
      ["monthly", "2026-02-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"],
      ["quarterly", "2026-04-01T00:00:00.000Z", "2026-07-01T00:00:00.000Z"],
      ["annual", "2025-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"],
    ];
    for (const [type, s, e] of ok) expect(periodRefusal(type, d(s), d(e))).toBeNull();
    const bad: [Parameters<typeof periodRefusal>[0], string, string][] = [
      ["monthly", "2026-02-02T00:00:00.000Z", "2026-03-02T00:00:00.000Z"],
      ["monthly", "2026-02-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"],
      ["monthly", "2026-02-01T00:00:00.001Z", "2026-03-01T00:00:00.000Z"],
      ["quarterly", "2026-02-01T00:00:00.000Z", "2026-05-01T00:00:00.000Z"],
      ["quarterly", "2026-04-01T00:00:00.000Z", "2026-05-01T00:00:00.000Z"],
      ["annual", "2026-07-01T00:00:00.000Z", "2027-07-01T00:00:00.000Z"],
      ["annual", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"],
      ["annual", "2026-01-01T00:00:00.000Z", "2025-01-01T00:00:00.000Z"],
    ];
    for (const [type, s, e] of bad)
      expect(periodRefusal(type, d(s), d(e))?.refusal, `${type} ${s}`).toBe("InvalidInput");
  });

  test("due date: days after the exclusive period end", () => {
    expect(dueDateOf(d("2026-10-01T00:00:00.000Z"), 30).toISOString()).toBe("2026-10-31T00:00:00.000Z");
  });
});

describe("figures", () => {
  test("taxable income and tax due, exact cents, half to even", () => {
    expect(
      computeFigures({ gross_revenue: 1000.1, cost_of_goods_sold: 200.05, operating_expenses: 100.02 }, 0.15),
    ).toEqual({
      gross_revenue: 1000.1,
      cost_of_goods_sold: 200.05,
      operating_expenses: 100.02,
      taxable_income: 700.03,
      tax_due: 105,
    });
    // 33.30 x 0.15 = 4.995 -> 5.00 (half to even on the cent: 499.5 -> 500); 33.10 x 0.15 = 4.965 -> 4.96
    expect(computeFigures({ gross_revenue: 33.3, cost_of_goods_sold: 0, operating_expenses: 0 }, 0.15)).toMatchObject({
      tax_due: 5,
    });
    expect(computeFigures({ gross_revenue: 33.1, cost_of_goods_sold: 0, operating_expenses: 0 }, 0.15)).toMatchObject({
      tax_due: 4.96,
    });
  });

  test("a loss floors taxable income at 0; all zero is allowed", () => {
    expect(computeFigures({ gross_revenue: 10, cost_of_goods_sold: 20, operating_expenses: 5 }, 0.2)).toMatchObject({
      taxable_income: 0,
      tax_due: 0,
    });
    expect(computeFigures({ gross_revenue: 0, cost_of_goods_sold: 0, operating_expenses: 0 }, 0.2)).toMatchObject({
      tax_due: 0,
    });
  });

  test("negative, more than two decimals, or too large figures are InvalidAmount naming the field", () => {
    for (const [field, value] of [
      ["gross_revenue", -0.01],
      ["cost_of_goods_sold", 1.001],
      ["operating_expenses", 1e20],
      ["gross_revenue", Number.NaN],
    ] as const) {
      const r = computeFigures({ gross_revenue: 1, cost_of_goods_sold: 1, operating_expenses: 1, [field]: value }, 0.1);
      expect(r).toMatchObject({ refusal: "InvalidAmount", details: { field } });
    }
  });
});

describe("state machine", () => {
  const all: TaxFilingStatus[] = ["draft", "submitted", "accepted", "rejected", "amended"];
  test("each move starts only from its states, and every status is reached by one", () => {
    for (const [move, { from }] of Object.entries(TAX_FILING_MOVES)) {
      for (const status of all) {
        const allowed = (from as readonly string[]).includes(status);
        expect(moveRefusal(status, move as keyof typeof TAX_FILING_MOVES) === null, `${move} from ${status}`).toBe(
          allowed,
        );
      }
    }
    const reached = new Set(["draft", ...Object.values(TAX_FILING_MOVES).map((m) => m.to)]);
    expect([...reached].sort()).toEqual([...all].sort());
  });
});

describe("documents and references", () => {
  test("known types; a receipt only once submitted", () => {
    expect(documentRefusal("tax_return", null)).toBeNull();
    expect(documentRefusal("computation", null)).toBeNull();
    expect(documentRefusal("receipt", null)?.refusal).toBe("InvalidState");
    expect(documentRefusal("receipt", d("2026-01-01T00:00:00.000Z"))).toBeNull();
    expect(documentRefusal("invoice", null)?.refusal).toBe("InvalidInput");
  });
  test("reference numbers", () => {
    expect(referenceNumber("FZ", 2026, 42)).toBe("FZ-TAX-2026-000042");
  });
});

describe("deadlines", () => {
  const dueDays = { monthly: 20, quarterly: 30, annual: 90 };
  const now = d("2026-11-23T10:00:00.000Z");
  test("unfiled past periods since the company existed, plus the current one, by due date", () => {
    const items = deadlines({
      types: ["quarterly", "annual"],
      filings: [
        { sid: "q2", filing_type: "quarterly", period_start: d("2026-04-01T00:00:00.000Z"), status: "submitted" },
        {
          sid: "q1-rejected",
          filing_type: "quarterly",
          period_start: d("2026-01-01T00:00:00.000Z"),
          status: "rejected",
        },
        { sid: "q1", filing_type: "quarterly", period_start: d("2026-01-01T00:00:00.000Z"), status: "draft" },
      ],
      companyCreatedAt: d("2026-02-10T08:00:00.000Z"),
      now,
      dueDays,
    });
    expect(
      items.map((i) => [
        i.filing_type,
        i.period_start.toISOString(),
        i.due_date.toISOString(),
        i.filing_id,
        i.filing_status,
        i.overdue,
      ]),
    ).toEqual([
      ["quarterly", "2026-01-01T00:00:00.000Z", "2026-05-01T00:00:00.000Z", "q1", "draft", true],
      ["quarterly", "2026-07-01T00:00:00.000Z", "2026-10-31T00:00:00.000Z", null, null, true],
      ["quarterly", "2026-10-01T00:00:00.000Z", "2027-01-31T00:00:00.000Z", null, null, false],
      ["annual", "2026-01-01T00:00:00.000Z", "2027-04-01T00:00:00.000Z", null, null, false],
    ]);
  });

  test("a past period not yet due is listed but not overdue; the lookback is bounded", () => {
    const items = deadlines({
      types: ["monthly"],
      filings: [],
      companyCreatedAt: d("2000-01-01T00:00:00.000Z"),
      now,
      dueDays: { ...dueDays, monthly: 30 },
    });
    expect(items).toHaveLength(121);
    const october = items.find((i) => i.period_start.toISOString() === "2026-10-01T00:00:00.000Z");
    expect(october).toMatchObject({ overdue: false });
    expect(october?.due_date.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(items.find((i) => i.period_start.toISOString() === "2026-09-01T00:00:00.000Z")).toMatchObject({
      overdue: true,
    });
    expect(items.at(-1)?.period_start.toISOString()).toBe("2026-11-01T00:00:00.000Z");
  });
});

describe("configuration", () => {
  test("defaults and overrides; bad values fail naming the variable", () => {
    expect(loadConfig({}).tax).toEqual({
      rate: 0.15,
      currency: "USD",
      dueDays: { monthly: 20, quarterly: 30, annual: 90 },
      requiredPeriods: ["quarterly", "annual"],
    });
    const c = loadConfig({ TAX_RATE: "0.25", TAX_DUE_DAYS_ANNUAL: "120", TAX_REQUIRED_PERIODS: "monthly" }).tax;
    expect(c).toMatchObject({ rate: 0.25, dueDays: { annual: 120 }, requiredPeriods: ["monthly"] });
    expect(() => loadConfig({ TAX_RATE: "1.5" })).toThrow(/TAX_RATE/);
    expect(() => loadConfig({ TAX_RATE: "0.1234567" })).toThrow(/TAX_RATE/);
    expect(() => loadConfig({ TAX_REQUIRED_PERIODS: "weekly" })).toThrow(/TAX_REQUIRED_PERIODS/);
    expect(() => loadConfig({ TAX_CURRENCY: "usd" })).toThrow(/TAX_CURRENCY/);
  });
});
