import { beforeEach, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { balanceOf, datesOf, deductions, fund, insertResident, renewalStart } from "./support.ts";

// paymentservice.initiate_renewal and get_subscription_status over HTTP: price with the duration discount, new end
// = max(current end, now) + plan, paid from the wallet only, audited renew_subscription; refusals change nothing.

let t: TestApp;
let admin: Client;
let ada: Client;
let bob: Client;
beforeEach(async () => {
  ({ t, admin, ada } = await renewalStart());
  bob = await t.register("bob@example.org");
});

const renew = (client: Client, plan: string) => client.call("paymentservice.initiate_renewal", { plan });
const auditRows = (userId: string) =>
  sql<{ allowed: boolean; target_type: string; target_ref: string }>(
    t,
    `select allowed, target_type, target_ref from user_audit_log where action = 'renew_subscription' and subject_id = ?`,
    [userId],
  );

describe("initiate_renewal", () => {
  test("1_year: debits 102 (120 less 15 %), extends from the current end, audited, status read back", async () => {
    const residentId = await insertResident(t, ada.userId);
    await fund(admin, ada.userId, 150);
    const info = await ada.callOk("paymentservice.initiate_renewal", { plan: "1_year" });
    expect(info).toMatchObject({
      entity_type: "resident",
      entity_id: residentId,
      plan: "1_year",
      status: "active",
      subscription_start_date: "2025-12-10T00:00:00.000Z",
      subscription_end_date: "2027-12-10T00:00:00.000Z",
      days_remaining: 381,
      amount_charged: 102,
      discount_rate: 0.15,
      currency: "USD",
      balance_after: 48,
    });
    expect(await balanceOf(t, ada.userId)).toBe(48);
    expect(await deductions(t, ada.userId)).toEqual([
      { amount: "102.00", reference_type: "subscription", reference_id: residentId },
    ]);
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({ end: "2027-12-10T00:00:00.000Z" });
    const txId = info.credit_transaction_id;
    expect(await count(t, "credit_transaction", "sid = ?", [txId])).toBe(1);
    expect(await auditRows(ada.userId)).toEqual([
      { allowed: true, target_type: "subscription", target_ref: ada.userId },
    ]);
    const status = await ada.callOk("paymentservice.get_subscription_status", {});
    expect(status).toMatchObject({ subscription_end_date: "2027-12-10T00:00:00.000Z", amount_charged: null });
  });

  test.each([
    ["1_month", 10, 0, "2027-01-10T00:00:00.000Z", "1_year"],
    ["6_months", 54, 0.1, "2027-06-10T00:00:00.000Z", "6_months"],
    ["2_years", 192, 0.2, "2028-12-10T00:00:00.000Z", "2_years"],
    ["3_years", 270, 0.25, "2029-12-10T00:00:00.000Z", "3_years"],
  ])("%s costs %d at discount %d and ends %s; the stored plan becomes %s", async (plan, amount, rate, end, stored) => {
    const residentId = await insertResident(t, ada.userId);
    await fund(admin, ada.userId, 300);
    const info = await ada.callOk("paymentservice.initiate_renewal", { plan });
    expect(info).toMatchObject({ amount_charged: amount, discount_rate: rate, subscription_end_date: end });
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({ plan: stored, end });
  });

  test("an expired resident renews from now, starts a new period and is active again", async () => {
    const residentId = await insertResident(t, ada.userId, {
      status: "expired",
      subscription_end_date: new Date("2026-10-01T00:00:00.000Z"),
    });
    await fund(admin, ada.userId, 10);
    const info = await ada.callOk("paymentservice.initiate_renewal", { plan: "1_month" });
    expect(info).toMatchObject({
      status: "expiring",
      subscription_start_date: "2026-11-23T10:00:00.000Z",
      subscription_end_date: "2026-12-23T10:00:00.000Z",
      days_remaining: 30,
    });
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({
      status: "active",
      start: "2026-11-23T10:00:00.000Z",
    });
  });

  test("an active resident whose end passed a minute ago renews from now, not from the old end", async () => {
    await insertResident(t, ada.userId, { subscription_end_date: new Date("2026-11-23T09:59:00.000Z") });
    await fund(admin, ada.userId, 10);
    const info = await ada.callOk("paymentservice.initiate_renewal", { plan: "1_month" });
    expect(info.subscription_end_date).toBe("2026-12-23T10:00:00.000Z");
  });

  test("a short wallet is InsufficientFunds with the balance; nothing changes, the denial is audited", async () => {
    const residentId = await insertResident(t, ada.userId);
    await fund(admin, ada.userId, 101.99);
    const r = await renew(ada, "1_year");
    expect(errorOf(r)).toMatchObject({
      code: -32006,
      data: { type: "PaymentError", variant: "InsufficientFunds", balance: 101.99, amount: 102 },
    });
    expect(await balanceOf(t, ada.userId)).toBe(101.99);
    expect(await deductions(t, ada.userId)).toEqual([]);
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({ end: "2026-12-10T00:00:00.000Z" });
    expect(await auditRows(ada.userId)).toEqual([
      { allowed: false, target_type: "subscription", target_ref: ada.userId },
    ]);
  });

  test("exactly the price empties the wallet (edge value)", async () => {
    await insertResident(t, ada.userId);
    await fund(admin, ada.userId, 102);
    expect((await ada.callOk("paymentservice.initiate_renewal", { plan: "1_year" })).balance_after).toBe(0);
  });

  test.each(["2_months", "monthly", "one_year", ""])(
    "an unknown plan %j is InvalidInput, nothing written",
    async (p) => {
      await insertResident(t, ada.userId);
      await fund(admin, ada.userId, 500);
      expect(errorOf(await renew(ada, p))).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
      expect(await deductions(t, ada.userId)).toEqual([]);
    },
  );

  test("a caller without a resident gets NotFound", async () => {
    await fund(admin, ada.userId, 500);
    expect(errorOf(await renew(ada, "1_year"))).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect(await balanceOf(t, ada.userId)).toBe(500);
  });

  test.each(["pending", "suspended"])("a %s resident is InvalidState, nothing charged", async (status) => {
    const residentId = await insertResident(t, ada.userId, { status });
    await fund(admin, ada.userId, 500);
    expect(errorOf(await renew(ada, "1_year"))).toMatchObject({
      code: -32005,
      data: { variant: "InvalidState", status },
    });
    expect(await balanceOf(t, ada.userId)).toBe(500);
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({ status, end: "2026-12-10T00:00:00.000Z" });
  });

  test("naming another user is refused; that user's resident and wallet are untouched", async () => {
    const residentId = await insertResident(t, bob.userId);
    await fund(admin, bob.userId, 500);
    const r = await ada.call("paymentservice.initiate_renewal", { user_id: bob.userId, plan: "1_year" });
    expect(errorOf(r).code).toBe(-32002);
    expect(await balanceOf(t, bob.userId)).toBe(500);
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({ end: "2026-12-10T00:00:00.000Z" });
  });

  test("the caller pays for its own resident only: bob's wallet is not used for ada", async () => {
    await insertResident(t, ada.userId);
    await fund(admin, bob.userId, 500);
    expect(errorOf(await renew(ada, "1_year")).data.variant).toBe("InsufficientFunds");
    expect(await balanceOf(t, bob.userId)).toBe(500);
  });

  test("anonymous callers are refused", async () => {
    const r = await t.call("paymentservice.initiate_renewal", { user_id: ada.userId, plan: "1_year" });
    expect(errorOf(r).code).toBe(-32001);
  });
});

describe("get_subscription_status", () => {
  test("computes the status from the end date: active, expiring from 30 days, suspended after the end", async () => {
    const residentId = await insertResident(t, ada.userId, {
      subscription_end_date: new Date("2026-12-23T10:00:01.000Z"),
    });
    const read = () => ada.callOk("paymentservice.get_subscription_status", {});
    expect(await read()).toEqual({
      entity_type: "resident",
      entity_id: residentId,
      plan: "1_year",
      status: "active",
      subscription_start_date: "2025-12-10T00:00:00.000Z",
      subscription_end_date: "2026-12-23T10:00:01.000Z",
      days_remaining: 30,
      auto_renewal: false,
      amount_charged: null,
      discount_rate: null,
      currency: "USD",
      credit_transaction_id: null,
      balance_after: null,
    });
    // Sessions last an hour, so the end moves instead of the clock.
    const endAt = (iso: string) =>
      sql(t, `update digital_resident set subscription_end_date = ? where resident_id = ?`, [
        new Date(iso),
        residentId,
      ]);
    await endAt("2026-12-23T10:00:00.000Z");
    expect(await read()).toMatchObject({ status: "expiring", days_remaining: 30 });
    await endAt("2026-11-23T10:00:00.001Z");
    expect(await read()).toMatchObject({ status: "expiring", days_remaining: 0 });
    await endAt("2026-11-23T10:00:00.000Z");
    expect(await read()).toMatchObject({ status: "suspended", days_remaining: 0 });
  });

  test("a resident never subscribed reads none with null dates", async () => {
    await insertResident(t, ada.userId, {
      status: "pending",
      subscription_plan: null,
      subscription_start_date: null,
      subscription_end_date: null,
    });
    expect(await ada.callOk("paymentservice.get_subscription_status", {})).toMatchObject({
      status: "none",
      plan: null,
      days_remaining: null,
      subscription_end_date: null,
    });
  });

  test("NotFound without a resident; another user's id is refused", async () => {
    await insertResident(t, bob.userId);
    expect(errorOf(await ada.call("paymentservice.get_subscription_status", {})).code).toBe(-32003);
    expect(errorOf(await ada.call("paymentservice.get_subscription_status", { user_id: bob.userId })).code).toBe(
      -32002,
    );
  });
});
