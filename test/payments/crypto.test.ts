import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";
import { insertResident, paymentRow, sweep } from "./support.ts";

let t: TestApp;
let ada: Client;
let residentId: string;
beforeEach(async () => {
  t = await startTestApp({ paymentSweepIntervalS: 0 });
  ada = await t.register("ada@example.org");
  residentId = await insertResident(t, ada.userId, { status: "pending", subscription_plan: "1_year" });
});

/** 1_year: 12 x 10 USD less 15%. */
const PRICE = 102;

const wallet = (
  params: Partial<{
    payment_type: "bitcoin" | "ethereum" | "mobilepay";
    amount: number;
    currency: string;
    resident_id: string;
  }> = {},
) =>
  ada.call("paymentservice.get_payment_wallet", {
    resident_id: residentId,
    payment_type: "bitcoin",
    amount: PRICE,
    currency: "USD",
    ...params,
  });

/** Every other activation step complete: verified email, a completed KYC session (no contracts are required). */
async function completeOtherSteps() {
  await sql(t, `update "user" set email_verified = true where sid = ?`, [ada.userId]);
  await insertRow(t.app.runtime.orm, "KycSession", {
    user_id: ada.userId,
    resident_id: residentId,
    status: "completed",
    kycprovider_scan_ref: "scan-1",
    identity_verified: true,
    document_verified: true,
    liveness_verified: true,
    expires_at: new Date("2026-12-01T00:00:00.000Z"),
    verified_at: new Date("2026-11-22T00:00:00.000Z"),
  });
}

describe("get_payment_wallet and the sandbox chain", () => {
  test("a deposit address per payment, the exact crypto amount, then confirming and confirmed by the chain", async () => {
    const other = await ada.callOk("paymentservice.get_payment_wallet", {
      resident_id: residentId,
      payment_type: "bitcoin",
      amount: PRICE,
      currency: "USD",
    });
    const first = await ada.callOk("paymentservice.get_payment_wallet", {
      resident_id: residentId,
      payment_type: "bitcoin",
      amount: PRICE,
      currency: "USD",
    });
    expect(first).toMatchObject({
      status: "pending",
      crypto_currency: "BTC",
      amount: PRICE,
      exchange_rate: "60000.00",
      crypto_amount: "0.00170000",
    });
    expect(first.wallet_address).not.toBe(other.wallet_address);
    expect(first.payment_uri).toBe(`bitcoin:${first.wallet_address}?amount=0.00170000`);
    await sql(t, `delete from payment where sid = ?`, [other.payment_id]);

    t.clock.advance(5 * 60);
    await sweep(t);
    expect((await paymentRow(t, first.payment_id)).status).toBe("pending");
    t.clock.advance(5 * 60);
    expect((await sweep(t)).confirming).toBe(1);
    expect(await paymentRow(t, first.payment_id)).toMatchObject({ status: "confirming", confirmation_count: 1 });
    t.clock.advance(20 * 60);
    expect((await sweep(t)).confirmed).toBe(1);
    const done = await paymentRow(t, first.payment_id);
    expect(done).toMatchObject({ status: "confirmed", confirmation_count: 3 });
    expect(done.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    // Other steps missing: the resident waits (activation reads this confirmed payment later).
    expect(await count(t, "digital_resident", "resident_id = ? and status = 'pending'", [residentId])).toBe(1);
  });

  test("the chain's confirmation activates the resident when every other step is complete", async () => {
    await completeOtherSteps();
    const p = await ada.callOk("paymentservice.get_payment_wallet", {
      resident_id: residentId,
      payment_type: "ethereum",
      amount: PRICE,
      currency: "USD",
    });
    expect(p.crypto_currency).toBe("ETH");
    t.clock.advance(12 * 15);
    expect((await sweep(t)).confirmed).toBe(1);
    expect(
      await count(t, "digital_resident", "resident_id = ? and status = 'active' and subscription_plan = '1_year'", [
        residentId,
      ]),
    ).toBe(1);
    expect((await paymentRow(t, p.payment_id)).status).toBe("confirmed");
  });

  test("an unpaid crypto payment expires", async () => {
    const p = await ada.callOk("paymentservice.get_payment_wallet", {
      resident_id: residentId,
      payment_type: "bitcoin",
      amount: PRICE,
      currency: "USD",
    });
    t.clock.advance(61 * 60);
    expect((await sweep(t)).expired).toBe(1);
    expect((await paymentRow(t, p.payment_id)).status).toBe("expired");
  });
});

describe("get_payment_wallet refusals: an error, nothing written", () => {
  test.each([
    [{ amount: 0 }, "InvalidAmount"],
    [{ amount: -102 }, "InvalidAmount"],
    [{ amount: 101.999 }, "InvalidAmount"],
    [{ amount: 100 }, "InvalidAmount"],
    [{ currency: "XXX" }, "InvalidInput"],
    [{ currency: "EUR" }, "InvalidAmount"],
    [{ payment_type: "mobilepay" as const }, "InvalidInput"],
    [{ resident_id: "FZ-2026-RA999999" }, "NotFound"],
  ])("%o -> %s", async (params, variant) => {
    expect(errorOf(await wallet(params))).toMatchObject({ data: { variant } });
    expect(await count(t, "payment")).toBe(0);
  });

  test("another user's resident is NotFound", async () => {
    const bob = await t.register("bob@example.org");
    const r = await bob.call("paymentservice.get_payment_wallet", {
      resident_id: residentId,
      payment_type: "bitcoin",
      amount: PRICE,
      currency: "USD",
    });
    expect(errorOf(r)).toMatchObject({ data: { variant: "NotFound" } });
    expect(await count(t, "payment")).toBe(0);
  });
});
