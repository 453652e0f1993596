import { describe, expect, test } from "vitest";
import {
  aiRepeatRefusal,
  debitOutcome,
  ledgerAmount,
  pagingRefusal,
  referenceType,
  refundRefusal,
  topUpRefusal,
} from "../../src/domain/ledger.ts";

describe("ledger rules", () => {
  test("amounts: positive, at most two decimals, as exact cents", () => {
    expect(ledgerAmount(0.01)).toBe(1);
    expect(ledgerAmount(12.34)).toBe(1234);
    expect(ledgerAmount(0.1 + 0.2)).toMatchObject({ refusal: "InvalidAmount" });
    for (const bad of [0, -0.01, 1.005, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(ledgerAmount(bad)).toMatchObject({ refusal: "InvalidAmount" });
    }
  });

  test("reference types are the record's list", () => {
    expect(referenceType("ai_call")).toBe("ai_call");
    expect(referenceType("AI_CALL")).toMatchObject({ refusal: "InvalidInput" });
  });

  test("a debit never drives the balance below zero", () => {
    expect(debitOutcome(500, 500)).toBe(0);
    expect(debitOutcome(500, 501)).toMatchObject({ refusal: "InsufficientFunds", details: { balance: 5 } });
  });

  test("refunds stay within what was deducted for the reference", () => {
    expect(refundRefusal(0, 0, 1)).toMatchObject({ refusal: "NotFound" });
    expect(refundRefusal(400, 300, 100)).toBeNull();
    expect(refundRefusal(400, 300, 101)).toMatchObject({ refusal: "InvalidAmount" });
  });

  test("a top-up needs the user's confirmed top-up payment of that amount", () => {
    const payment = { user_id: "u", amount: 25, payment_purpose: "credit_topup", status: "confirmed" };
    expect(topUpRefusal(payment, "u", 2500)).toBeNull();
    expect(topUpRefusal({ ...payment, payment_purpose: "credit_top_up" }, "u", 2500)).toBeNull();
    expect(topUpRefusal(payment, "v", 2500)).toMatchObject({ refusal: "InvalidInput" });
    expect(topUpRefusal({ ...payment, payment_purpose: "invoice_payment" }, "u", 2500)).toMatchObject({
      refusal: "InvalidInput",
    });
    expect(topUpRefusal({ ...payment, status: "confirming" }, "u", 2500)).toMatchObject({ refusal: "InvalidState" });
    expect(topUpRefusal(payment, "u", 2499)).toMatchObject({ refusal: "InvalidAmount" });
  });

  test("a repeated external call id must name the same user and amount", () => {
    expect(aiRepeatRefusal({ user_id: "u", amount: 0.25 }, "u", 25)).toBeNull();
    expect(aiRepeatRefusal({ user_id: "u", amount: 0.25 }, "u", 26)).toMatchObject({ refusal: "AlreadyExists" });
    expect(aiRepeatRefusal({ user_id: "u", amount: 0.25 }, "v", 25)).toMatchObject({ refusal: "AlreadyExists" });
  });

  test("paging bounds", () => {
    expect(pagingRefusal(1, 0)).toBeNull();
    expect(pagingRefusal(1, 100)).toBeNull();
    expect(pagingRefusal(0, 20)).toMatchObject({ refusal: "InvalidInput" });
    expect(pagingRefusal(1, 101)).toMatchObject({ refusal: "InvalidInput" });
  });
});
