import { beforeEach, describe, expect, test } from "vitest";
import { bonusExpiresAt, bonusExpiries, type LedgerEntry } from "../../src/domain/ledger.ts";
import { sweepExpiredCredits } from "../../src/services/credit-service/expiry-sweep.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { fund, insertPayment, walletOf } from "./support.ts";

const at = (iso: string) => new Date(iso);
const entry = (
  sid: string,
  tx_type: LedgerEntry["tx_type"],
  amount: number,
  iso: string,
  ref: string | null = null,
) => ({
  sid,
  tx_type,
  amount,
  created_at: at(iso),
  reference_id: ref,
  status: "completed",
});

describe("bonus expiry rule", () => {
  test("12 calendar months after the grant, in UTC", () => {
    expect(bonusExpiresAt(at("2026-11-23T10:00:00.000Z")).toISOString()).toBe("2027-11-23T10:00:00.000Z");
    expect(bonusExpiresAt(at("2028-02-29T00:00:00.000Z")).toISOString()).toBe("2029-03-01T00:00:00.000Z");
  });

  test("deductions spend the oldest credits first; what is left of an old bonus expires once", () => {
    const ledger = [
      entry("topup", "top_up", 500, "2026-01-01T00:00:00Z"),
      entry("bonus", "bonus", 1000, "2026-01-02T00:00:00Z"),
      entry("d1", "deduction", 800, "2026-02-01T00:00:00Z"),
    ];
    expect(bonusExpiries(ledger, at("2027-01-01T23:59:59Z"))).toEqual([]);
    expect(bonusExpiries(ledger, at("2027-01-02T00:00:00Z"))).toEqual([{ bonusSid: "bonus", amount: 700 }]);
    const swept = [...ledger, entry("x", "expiry", 700, "2027-01-02T00:00:00Z", "bonus")];
    expect(bonusExpiries(swept, at("2028-01-01T00:00:00Z"))).toEqual([]);
  });

  test("a bonus granted before a top-up is spent first, and a spent bonus never expires", () => {
    const ledger = [
      entry("bonus", "bonus", 1000, "2026-01-01T00:00:00Z"),
      entry("topup", "top_up", 500, "2026-01-02T00:00:00Z"),
      entry("d1", "deduction", 800, "2026-02-01T00:00:00Z"),
    ];
    expect(bonusExpiries(ledger, at("2027-06-01T00:00:00Z"))).toEqual([{ bonusSid: "bonus", amount: 200 }]);
    const spent = [...ledger, entry("d2", "deduction", 200, "2026-03-01T00:00:00Z")];
    expect(bonusExpiries(spent, at("2027-06-01T00:00:00Z"))).toEqual([]);
  });
});

describe("credit expiry sweep", () => {
  let t: TestApp;
  let admin: Client;
  let ada: Client;
  beforeEach(async () => {
    t = await startTestApp();
    admin = await t.admin();
    ada = await t.register("ada@example.org");
  });

  test("expires the unspent part of a year-old bonus as an expiry row, once", async () => {
    const paymentId = await insertPayment(t, ada.userId, { amount: 5 });
    await admin.callOk("creditservice.top_up", { user_id: ada.userId, amount: 5, payment_id: paymentId });
    t.clock.advance(60);
    const bonus = await fund(admin, ada.userId, 10);
    await ada.callOk("creditservice.deduct", {
      amount: 8,
      description: "kyc",
      reference_type: "kyc",
      reference_id: "k1",
    });
    t.clock.set("2027-11-23T10:00:59.999Z");
    expect(await sweepExpiredCredits(t.app.runtime, t.clock.now())).toBe(0);
    t.clock.set("2027-11-23T10:01:00.000Z");
    expect(await sweepExpiredCredits(t.app.runtime, t.clock.now())).toBe(1);
    expect(await sweepExpiredCredits(t.app.runtime, t.clock.now())).toBe(0);
    expect(await walletOf(t, ada.userId)).toEqual({ balance: 0, earned: 15, spent: 8 });
    const rows = await sql(
      t,
      "select tx_type, amount::text, balance_after::text, reference_id from credit_transaction where tx_type = 'expiry'",
    );
    expect(rows).toEqual([{ tx_type: "expiry", amount: "7.00", balance_after: "0.00", reference_id: bonus.sid }]);
  });
});
