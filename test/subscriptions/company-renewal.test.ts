import { beforeEach, describe, expect, test } from "vitest";
import type { Client, TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import {
  balanceOf,
  datesOf,
  deductions,
  fund,
  insertCompany,
  insertResident,
  insertRole,
  renewalStart,
} from "./support.ts";

// paymentservice.initiate_company_renewal over HTTP: monthly fee x months x (1 - company discount), no setup fee,
// from the calling director's wallet; extends the company's end date and posts a CompanyMessage.

let t: TestApp;
let admin: Client;
let ada: Client;
let bob: Client;
let companyId: string;
beforeEach(async () => {
  ({ t, admin, ada } = await renewalStart());
  bob = await t.register("bob@example.org");
  companyId = await insertCompany(t, ada.userId);
});

const renew = (client: Client, plan: string, id = companyId) =>
  client.call("paymentservice.initiate_company_renewal", { company_id: id, plan });
const messages = (id = companyId) =>
  sql<{ title: string; body: string; category: string }>(
    t,
    `select title, body, category from company_message where company_id = ?`,
    [id],
  );

describe("initiate_company_renewal", () => {
  test("1_year: 90 x 12 less 20 % = 864 from the owner's wallet, end extended, message posted, audited", async () => {
    await fund(admin, ada.userId, 1000);
    const info = await ada.callOk("paymentservice.initiate_company_renewal", { company_id: companyId, plan: "1_year" });
    expect(info).toMatchObject({
      entity_type: "company",
      entity_id: companyId,
      plan: "one_year",
      status: "active",
      subscription_start_date: "2025-12-01T00:00:00.000Z",
      subscription_end_date: "2027-12-01T00:00:00.000Z",
      amount_charged: 864,
      discount_rate: 0.2,
      balance_after: 136,
    });
    expect(await deductions(t, ada.userId)).toEqual([
      { amount: "864.00", reference_type: "company", reference_id: companyId },
    ]);
    expect(await datesOf(t, "zone_company", companyId)).toMatchObject({ end: "2027-12-01T00:00:00.000Z" });
    const posted = await messages();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ title: "Subscription renewed", category: "payment" });
    expect(posted[0]?.body).toContain("864.00 USD");
    const audit = await sql(
      t,
      `select allowed, target_type, target_ref from user_audit_log where action = 'renew_subscription'`,
    );
    expect(audit).toEqual([{ allowed: true, target_type: "company", target_ref: companyId }]);
  });

  test.each([
    ["1_month", 90, 0, "2027-01-01T00:00:00.000Z", "monthly"],
    ["6_months", 486, 0.1, "2027-06-01T00:00:00.000Z", "one_year"],
    ["2_years", 1296, 0.4, "2028-12-01T00:00:00.000Z", "two_years"],
    ["3_years", 1944, 0.4, "2029-12-01T00:00:00.000Z", "one_year"],
  ])("%s costs %d (discount %d), ends %s, plan %s", async (plan, amount, rate, end, stored) => {
    await fund(admin, ada.userId, 2000);
    const info = await ada.callOk("paymentservice.initiate_company_renewal", { company_id: companyId, plan });
    expect(info).toMatchObject({ amount_charged: amount, discount_rate: rate, subscription_end_date: end });
    expect(await datesOf(t, "zone_company", companyId)).toMatchObject({ plan: stored, end });
  });

  test("shareholders beyond those included pay the snapshot per-shareholder fee: (90 + 2 x 10) x 1", async () => {
    const holders = Array.from({ length: 5 }, (_, i) => ({ name: `H${i}`, email: `h${i}@example.org`, units: 1 }));
    const big = await insertCompany(t, ada.userId, { shareholders: holders });
    await fund(admin, ada.userId, 200);
    const info = await ada.callOk("paymentservice.initiate_company_renewal", { company_id: big, plan: "1_month" });
    expect(info.amount_charged).toBe(110);
  });

  test("without a fee snapshot the type's list price is used (single_fzc: 50 a month)", async () => {
    const single = await insertCompany(t, ada.userId, { company_type: "single_fzc", monthly_fee_rate: 0 });
    await fund(admin, ada.userId, 200);
    const info = await ada.callOk("paymentservice.initiate_company_renewal", { company_id: single, plan: "1_month" });
    expect(info.amount_charged).toBe(50);
  });

  test("a company whose period lapsed renews from now with a new start", async () => {
    const lapsed = await insertCompany(t, ada.userId, { subscription_end_date: new Date("2026-06-01T00:00:00.000Z") });
    await fund(admin, ada.userId, 200);
    const info = await ada.callOk("paymentservice.initiate_company_renewal", { company_id: lapsed, plan: "1_month" });
    expect(info).toMatchObject({
      subscription_start_date: "2026-11-23T10:00:00.000Z",
      subscription_end_date: "2026-12-23T10:00:00.000Z",
    });
  });

  test("a director resident pays from its own user's wallet, not the owner's", async () => {
    const bobResident = await insertResident(t, bob.userId);
    await insertRole(t, companyId, bobResident, "director");
    await fund(admin, ada.userId, 1000);
    await fund(admin, bob.userId, 100);
    await bob.callOk("paymentservice.initiate_company_renewal", { company_id: companyId, plan: "1_month" });
    expect(await balanceOf(t, bob.userId)).toBe(10);
    expect(await balanceOf(t, ada.userId)).toBe(1000);
  });

  test("a short wallet is InsufficientFunds: no debit, no new end, no message", async () => {
    await fund(admin, ada.userId, 89.99);
    expect(errorOf(await renew(ada, "1_month"))).toMatchObject({
      code: -32006,
      data: { type: "PaymentError", variant: "InsufficientFunds", balance: 89.99, amount: 90 },
    });
    expect(await balanceOf(t, ada.userId)).toBe(89.99);
    expect(await datesOf(t, "zone_company", companyId)).toMatchObject({ end: "2026-12-01T00:00:00.000Z" });
    expect(await messages()).toEqual([]);
  });

  test.each(["voided", "suspended", "draft"])("a %s company is InvalidState, nothing written", async (s) => {
    const other = await insertCompany(t, ada.userId, { status: s });
    await fund(admin, ada.userId, 1000);
    expect(errorOf(await renew(ada, "1_month", other))).toMatchObject({
      code: -32005,
      data: { variant: "InvalidState", status: s },
    });
    expect(await balanceOf(t, ada.userId)).toBe(1000);
    expect(await messages(other)).toEqual([]);
  });

  test("an unknown plan is InvalidInput", async () => {
    await fund(admin, ada.userId, 1000);
    expect(errorOf(await renew(ada, "one_year"))).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    expect(await balanceOf(t, ada.userId)).toBe(1000);
  });

  test("another company's caller gets NotFound; a member who is not a director Forbidden", async () => {
    await fund(admin, bob.userId, 1000);
    expect(errorOf(await renew(bob, "1_month")).code).toBe(-32003);
    const bobResident = await insertResident(t, bob.userId);
    await insertRole(t, companyId, bobResident, "shareholder");
    expect(errorOf(await renew(bob, "1_month"))).toMatchObject({ code: -32002 });
    expect(await balanceOf(t, bob.userId)).toBe(1000);
    expect(await count(t, "company_message")).toBe(0);
  });

  test("an unknown company is NotFound", async () => {
    await fund(admin, ada.userId, 1000);
    expect(errorOf(await renew(ada, "1_month", "FZ-2026-Y999999")).code).toBe(-32003);
  });

  test("an administrator may renew from its own wallet; the AdminAction is recorded", async () => {
    await fund(admin, admin.userId, 100);
    await admin.callOk("paymentservice.initiate_company_renewal", { company_id: companyId, plan: "1_month" });
    expect(await balanceOf(t, admin.userId)).toBe(10);
    expect(await count(t, "admin_action", "action = 'renew_company_subscription' and target_id = ?", [companyId])).toBe(
      1,
    );
  });
});
