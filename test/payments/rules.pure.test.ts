import { describe, expect, test } from "vitest";
import {
  adminConfirmRefusal,
  chainStatus,
  isTopUp,
  moveRefusal,
  paymentAmount,
  paymentCurrency,
  purposePrice,
  storedPurpose,
  verdictStatus,
} from "../../src/domain/payments.ts";
import { cryptoAmountFor, sandboxCoinRateCents } from "../../src/integrations/payments/sandbox-chain.ts";
import { sandboxStartRefusal, sandboxVerdict } from "../../src/integrations/payments/sandbox-rules.ts";

const now = new Date("2026-11-23T10:00:00.000Z");
const later = new Date("2026-11-23T11:00:00.000Z");

describe("payment state machine", () => {
  test("open payments move on; final ones never", () => {
    for (const to of ["confirming", "confirmed", "failed", "expired"] as const) {
      expect(moveRefusal("pending", to)).toBeNull();
      expect(moveRefusal("confirming", to)).toBeNull();
    }
    for (const from of ["confirmed", "failed", "expired"] as const) {
      for (const to of ["pending", "confirming", "confirmed", "failed", "expired"] as const) {
        expect(moveRefusal(from, to)?.refusal).toBe("InvalidState");
      }
    }
    expect(moveRefusal("confirming", "pending")?.refusal).toBe("InvalidState");
  });

  test("administrator confirmation: never the payer, not after expiry, only open", () => {
    const open = { status: "pending" as const, user_id: "payer", expires_at: later };
    expect(adminConfirmRefusal(open, "admin", now)).toBeNull();
    expect(adminConfirmRefusal({ ...open, status: "confirming" }, "admin", now)).toBeNull();
    expect(adminConfirmRefusal(open, "payer", now)?.refusal).toBe("AdminOnly");
    expect(adminConfirmRefusal(open, "admin", later)?.refusal).toBe("Expired");
    expect(adminConfirmRefusal({ ...open, status: "expired" }, "admin", now)?.refusal).toBe("Expired");
    expect(adminConfirmRefusal({ ...open, status: "failed" }, "admin", now)?.refusal).toBe("InvalidState");
    expect(adminConfirmRefusal({ ...open, status: "confirmed" }, "admin", now)?.refusal).toBe("InvalidState");
  });

  test("provider verdicts and chain counts", () => {
    expect(verdictStatus("succeeded")).toBe("confirmed");
    expect(verdictStatus("failed")).toBe("failed");
    expect(verdictStatus("cancelled")).toBe("failed");
    expect(verdictStatus("expired")).toBe("expired");
    expect(verdictStatus("pending")).toBeNull();
    expect(chainStatus(0, 3)).toBeNull();
    expect(chainStatus(2, 3)).toBe("confirming");
    expect(chainStatus(3, 3)).toBe("confirmed");
  });
});

describe("purposes, amounts, currencies", () => {
  test("credit_top_up is stored as credit_topup; both read as a top-up", () => {
    expect(storedPurpose("credit_top_up")).toBe("credit_topup");
    expect(storedPurpose("credit_topup")).toBe("credit_topup");
    expect(isTopUp("credit_top_up") && isTopUp("credit_topup")).toBe(true);
    expect(isTopUp("invoice_payment")).toBe(false);
    expect(storedPurpose("gift")).toMatchObject({ refusal: "InvalidInput" });
  });

  test("amounts are positive with two decimals at most; currencies from the list", () => {
    expect(paymentAmount(0.01)).toBe(1);
    for (const bad of [0, -1, 1.001, Number.NaN])
      expect(paymentAmount(bad)).toMatchObject({ refusal: "InvalidAmount" });
    expect(paymentCurrency("TZS")).toBe("TZS");
    expect(paymentCurrency("usd")).toMatchObject({ refusal: "InvalidInput" });
  });

  test("server prices", () => {
    expect(purposePrice("resident_subscription", "1_month", null)).toBe(1000);
    expect(purposePrice("resident_subscription", "3_years", null)).toBe(27000);
    expect(purposePrice("resident_subscription", null, null)).toMatchObject({ refusal: "InvalidInput" });
    expect(purposePrice("credit_topup", null, null)).toBeNull();
    const fees = { company_type: "startup_fzc" as const, monthly_fee_rate: 90, shareholder_fee_rate: 10 };
    const company = { status: "active" as const, fees: { ...fees, priced_holders: 4 } };
    // One price rule: (90 + 1 x 10) x 12 x (1 - 0.2), whichever spelling names the year.
    expect(purposePrice("company_subscription", "one_year", company)).toBe(96000);
    expect(purposePrice("company_subscription", "1_year", company)).toBe(96000);
    expect(purposePrice("company_subscription", "2_years", { ...company, status: "inactive" })).toBe(144000);
    expect(purposePrice("company_subscription", "weekly", company)).toMatchObject({ refusal: "InvalidInput" });
    expect(purposePrice("company_registration", "monthly", null)).toMatchObject({ refusal: "InvalidInput" });
  });

  test("a company purpose that cannot apply is refused: registration of a registered company, renewal of one that cannot renew", () => {
    const fees = {
      company_type: "single_fzc" as const,
      monthly_fee_rate: 50,
      shareholder_fee_rate: 0,
      priced_holders: 1,
    };
    for (const status of ["active", "inactive", "suspended", "voided"] as const) {
      expect(purposePrice("company_registration", "monthly", { status, fees })).toMatchObject({
        refusal: "InvalidState",
        details: { status },
      });
    }
    for (const status of ["suspended", "voided", "draft", "pending_signatures"] as const) {
      expect(purposePrice("company_subscription", "1_month", { status, fees })).toMatchObject({
        refusal: "InvalidState",
        details: { status },
      });
    }
  });
});

describe("sandbox steering", () => {
  test("amount cents choose the outcome", () => {
    expect(sandboxStartRefusal(1091)).toBe("unavailable");
    expect(sandboxStartRefusal(1092)).toBe("rejected");
    expect(sandboxStartRefusal(1000)).toBeNull();
    expect(sandboxVerdict(1093)).toBe("failed");
    expect(sandboxVerdict(1094)).toBe("pending");
    expect(sandboxVerdict(1095)).toBe("succeeded");
  });

  test("crypto amounts round up to 8 decimals, exactly", () => {
    expect(sandboxCoinRateCents("BTC", "USD")).toBe(6_000_000);
    expect(cryptoAmountFor(10200, 6_000_000)).toBe("0.00170000");
    expect(cryptoAmountFor(1, 6_000_000)).toBe("0.00000017");
    expect(sandboxCoinRateCents("BTC", "XXX")).toBeNull();
  });
});
