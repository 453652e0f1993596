import { describe, expect, test } from "vitest";
import {
  draftOnlyRefusal,
  EXPENSE_CURRENCIES,
  expenseAmount,
  expenseChanges,
  expenseCurrency,
  fourEyes,
  MAX_REJECTION_REASON,
  moveRefusal,
  rejectionReason,
} from "../../src/domain/expenses.ts";
import { MAX_MONEY } from "../../src/domain/money.ts";

const STATES = ["draft", "submitted", "approved", "rejected"] as const;

describe("expense state machine", () => {
  test("each move starts from exactly one state", () => {
    const allowed = { submit: "draft", approve: "submitted", reject: "submitted" } as const;
    for (const [m, from] of Object.entries(allowed) as [keyof typeof allowed, string][]) {
      for (const s of STATES) {
        const r = moveRefusal(s, m);
        if (s === from) expect(r).toBeNull();
        else expect(r).toMatchObject({ refusal: "InvalidState", details: { status: s, required: from } });
      }
    }
  });

  test("only drafts are edited or deleted", () => {
    for (const s of STATES) {
      const r = draftOnlyRefusal(s, "updated");
      if (s === "draft") expect(r).toBeNull();
      else expect(r?.refusal).toBe("InvalidState");
    }
  });
});

describe("expense amounts and fields", () => {
  test("exact cents: the smallest and largest amounts pass, zero/negative/3 decimals/too large refused", () => {
    expect(expenseAmount(0.01)).toBe(0.01);
    expect(expenseAmount(12.5)).toBe(12.5);
    expect(expenseAmount(MAX_MONEY)).toBe(MAX_MONEY);
    for (const bad of [0, -0.01, -5, 0.001, 1.005, 10.123, MAX_MONEY + 1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(expenseAmount(bad)).toMatchObject({ refusal: "InvalidAmount" });
    }
  });

  test("currencies: the deployment's codes only", () => {
    for (const c of EXPENSE_CURRENCIES) expect(expenseCurrency(c)).toBe(c);
    expect(expenseCurrency("XYZ")).toMatchObject({ refusal: "InvalidInput", details: { field: "currency" } });
    expect(expenseCurrency("USDT")).toMatchObject({ refusal: "InvalidInput" });
  });

  test("changes: texts trimmed, blank required texts refused, blank receipt_url is none, absent stays absent", () => {
    expect(expenseChanges({})).toEqual({});
    expect(expenseChanges({ vendor_name: "  Acme  ", receipt_url: "  ", description: " x " })).toEqual({
      vendor_name: "Acme",
      receipt_url: null,
      description: "x",
    });
    for (const field of ["receipt_number", "vendor_name", "category"] as const) {
      expect(expenseChanges({ [field]: "   " })).toMatchObject({ refusal: "InvalidInput", details: { field } });
    }
    expect(expenseChanges({ amount: 0, currency: "XYZ" })).toMatchObject({ refusal: "InvalidAmount" });
    expect(expenseChanges({ expense_date: "2026-05-01T00:00:00.000Z" })).toEqual({
      expense_date: new Date("2026-05-01T00:00:00.000Z"),
    });
  });

  test("rejection reason: not blank, at most the cap (edge exact)", () => {
    expect(rejectionReason("  too dear ")).toBe("too dear");
    expect(rejectionReason(" \n ")).toMatchObject({ refusal: "InvalidInput" });
    expect(rejectionReason("r".repeat(MAX_REJECTION_REASON))).toBe("r".repeat(MAX_REJECTION_REASON));
    expect(rejectionReason("r".repeat(MAX_REJECTION_REASON + 1))).toMatchObject({ refusal: "InvalidInput" });
  });
});

describe("who decides", () => {
  test("the submitter decides nothing, as caller or as the owner of the deciding resident", () => {
    const board = ["u1", "u2"];
    expect(fourEyes("u1", "u2", "u2", board)).toEqual({ selfDecided: false });
    expect(fourEyes(null, "u1", "u1", board)).toEqual({ selfDecided: false });
    expect(fourEyes("u1", "u1", "u2", board)).toMatchObject({ refusal: "SelfApproval" });
    expect(fourEyes("u1", "u2", "u1", board)).toMatchObject({ refusal: "SelfApproval" });
  });

  test("four eyes: the submitter decides its own submission only as the company's whole board", () => {
    expect(fourEyes("u1", "u1", "u1", ["u1"])).toEqual({ selfDecided: true });
    expect(fourEyes("u1", "u1", "u1", ["u1", "u1"])).toEqual({ selfDecided: true });
    // a seat whose resident has no owning user (partner-onboarded) is another person
    expect(fourEyes("u1", "u1", "u1", ["u1", null])).toMatchObject({ refusal: "SelfApproval" });
    // no board at all (the owner counts as founder without a resident): nobody to call the whole board
    expect(fourEyes("u1", "u1", "u1", [])).toMatchObject({ refusal: "SelfApproval" });
  });
});
