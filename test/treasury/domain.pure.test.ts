import { describe, expect, test } from "vitest";
import {
  accountChanges,
  accountFields,
  crossRate,
  deactivationRefusal,
  isIban,
  isWalletAddress,
  movementAmount,
  needsApproval,
  percentFee,
  quoteFigures,
  quoteRefusal,
  selfApprovalRefusal,
  TREASURY_CURRENCIES,
  transferMoveRefusal,
} from "../../src/domain/treasury.ts";
import { SANDBOX_EUR_RATES } from "../../src/integrations/fx/index.ts";

describe("treasury rules", () => {
  test("every treasury currency has a sandbox rate", () => {
    for (const c of TREASURY_CURRENCIES) expect(SANDBOX_EUR_RATES[c], c).toBeGreaterThan(0);
  });

  test("amounts: positive, two decimals, as cents", () => {
    expect(movementAmount(0.01)).toBe(1);
    expect(movementAmount(12.34)).toBe(1234);
    for (const bad of [0, -0.01, 0.001, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(movementAmount(bad)).toMatchObject({ refusal: "InvalidAmount" });
    }
  });

  test("approval: only strictly above a positive threshold", () => {
    expect(needsApproval(5000, 50)).toBe(false);
    expect(needsApproval(5001, 50)).toBe(true);
    expect(needsApproval(1_000_000, 0)).toBe(false);
  });

  test("fees: percent of the amount, half-even to the cent, at least a cent, none at 0%", () => {
    expect(percentFee(10_000, 0.5)).toBe(50);
    expect(percentFee(100, 0.5)).toBe(1); // 0.005 -> at least one cent
    expect(percentFee(9950, 0.5)).toBe(50); // 0.4975 -> 0.50
    expect(percentFee(300, 0.5)).toBe(2); // 0.015 -> 0.02 (half-even)
    expect(percentFee(500, 0.5)).toBe(2); // 0.025 -> 0.02 (half-even)
    expect(percentFee(10_000, 0)).toBe(0);
  });

  test("cross rates carry ten decimals; quote figures: (amount - fee) x rate", () => {
    expect(crossRate(1, 0.92)).toBe(1.0869565217);
    expect(crossRate(0.92, 1)).toBe(0.92);
    expect(quoteFigures(10_000, 1.0869565217, 0.5)).toEqual({ fee: 50, toAmount: 10_815 });
    expect(quoteFigures(1, 0.00036, 0.5)).toMatchObject({ refusal: "InvalidAmount" });
  });

  test("a quote covers only its own requester, pair, amount and rate, unused and before expiry", () => {
    const now = new Date("2026-11-23T10:00:00.000Z");
    const quote = {
      user_id: "u1",
      from_currency: "EUR",
      to_currency: "USD",
      from_amount: 100,
      exchange_rate: 1.0869565217,
      expires_at: new Date(now.getTime() + 1),
      exchange_id: null,
    };
    const ask = { userId: "u1", fromCurrency: "EUR", toCurrency: "USD", fromAmount: 100, rate: 1.0869565217 };
    expect(quoteRefusal(quote, ask, now)).toBeNull();
    expect(quoteRefusal(quote, { ...ask, userId: "u2" }, now)?.refusal).toBe("QuoteMismatch");
    expect(quoteRefusal(quote, { ...ask, rate: 1.086956522 }, now)?.refusal).toBe("QuoteMismatch");
    expect(quoteRefusal(quote, { ...ask, fromAmount: 100.01 }, now)?.refusal).toBe("QuoteMismatch");
    expect(quoteRefusal(quote, { ...ask, toCurrency: "GBP" }, now)?.refusal).toBe("QuoteMismatch");
    expect(quoteRefusal({ ...quote, exchange_id: "x" }, ask, now)?.refusal).toBe("AlreadyUsed");
    expect(quoteRefusal({ ...quote, expires_at: now }, ask, now)?.refusal).toBe("Expired");
  });

  test("IBAN check digits and wallet addresses per network", () => {
    expect(isIban("DE89 3704 0044 0532 0130 00")).toBe(true);
    expect(isIban("DE89370400440532013001")).toBe(false);
    expect(isIban("not an iban")).toBe(false);
    expect(isWalletAddress("ethereum", "0x52908400098527886E0F7030069857D2E4169EE7")).toBe(true);
    expect(isWalletAddress("ethereum", "0x5290840009852788")).toBe(false);
    expect(isWalletAddress("tron", "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7")).toBe(true);
    expect(isWalletAddress("bitcoin", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")).toBe(true);
    expect(isWalletAddress("bitcoin", "short")).toBe(false);
  });

  test("account fields: trimmed, normalised, kind-specific", () => {
    const f = accountFields({
      kind: "bank_account",
      name: " Ops ",
      currency: "EUR",
      bank_name: "Bank",
      iban: "de89 3704 0044 0532 0130 00",
      swift: "deutdeff",
    });
    expect(f).toMatchObject({ name: "Ops", iban: "DE89370400440532013000", swift: "DEUTDEFF", approval_threshold: 0 });
    expect(accountFields({ kind: "bank_account", name: "x", currency: "EUR", account_number: "123" })).toMatchObject({
      refusal: "InvalidInput",
    });
    expect(accountChanges({ approval_threshold: 0.001 })).toMatchObject({ refusal: "InvalidInput" });
    expect(accountChanges({ name: "  n  ", is_active: false })).toEqual({ name: "n", is_active: false });
  });

  test("state moves, four eyes and deactivation", () => {
    expect(transferMoveRefusal("pending", "approve")).toBeNull();
    expect(transferMoveRefusal("processing", "cancel")).toMatchObject({ refusal: "InvalidState" });
    expect(transferMoveRefusal("processing", "settle")).toBeNull();
    const tr = { initiated_by: "R1", initiated_by_user: "U1" };
    expect(selfApprovalRefusal(tr, "R2", "U2")).toBeNull();
    expect(selfApprovalRefusal(tr, "R1", "U2")).toMatchObject({ refusal: "SelfApproval" });
    expect(selfApprovalRefusal(tr, "R2", "U1")).toMatchObject({ refusal: "SelfApproval" });
    expect(deactivationRefusal(0, 0, 0)).toBeNull();
    expect(deactivationRefusal(0.01, 0, 0)).toMatchObject({ refusal: "InvalidState" });
    expect(deactivationRefusal(0, 0, 1)).toMatchObject({ refusal: "InvalidState" });
  });
});
