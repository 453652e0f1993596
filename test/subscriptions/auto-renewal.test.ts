import { beforeEach, describe, expect, test } from "vitest";
import { type SweepDeps, sweepRenewals } from "../../src/services/shared/subscriptions/auto-renewal-sweep.ts";
import type { Client, TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { balanceOf, datesOf, deductions, fund, insertCompany, insertResident, renewalStart } from "./support.ts";

// The auto-renewal sweep, in-process on the test clock (2026-11-23T10:00Z): subscriptions with auto_renewal ending
// within 3 days are renewed from the wallet once; failures post a message once a day; a short wallet with auto
// top-up enabled starts one top-up through the injected onShortWallet.

let t: TestApp;
let admin: Client;
let ada: Client;
beforeEach(async () => {
  ({ t, admin, ada } = await renewalStart());
});

const sweep = (deps: SweepDeps = {}) => sweepRenewals(t.app.runtime, t.clock.now(), deps);
/** Ends `days` after the test clock's now. */
const endsIn = (days: number) => new Date(Date.parse("2026-11-23T10:00:00.000Z") + days * 86_400_000);
const userMessages = () =>
  sql<{ title: string; body: string; message_type: string }>(
    t,
    `select title, body, message_type from user_message where user_id = ? order by created_at, sid`,
    [ada.userId],
  );

/** A fake auto top-up that records its calls (the real one, autoTopUpHook, is tested in auto-renewal-topup.test.ts). */
function recordingTopUp() {
  const calls: { userId: string; now: string }[] = [];
  const deps: SweepDeps = {
    onShortWallet: async (_em, userId, now) => {
      calls.push({ userId, now: now.toISOString() });
      return `topup-${calls.length}`;
    },
  };
  return { calls, deps };
}

const enableAutoTopUp = (userId: string) =>
  sql(t, `update credit_balance set auto_topup_enabled = true, auto_topup_amount = 50 where user_id = ?`, [userId]);

describe("auto-renewal sweep: residents", () => {
  test("renews a resident 3 days before its end for its plan, once; a second run renews nothing", async () => {
    const residentId = await insertResident(t, ada.userId, { auto_renewal: true, subscription_end_date: endsIn(3) });
    await fund(admin, ada.userId, 150);
    expect(await sweep()).toEqual({ renewed: [residentId], failed: [], topUps: [] });
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({
      status: "active",
      plan: "1_year",
      end: "2027-11-26T10:00:00.000Z",
    });
    expect(await deductions(t, ada.userId)).toEqual([
      { amount: "102.00", reference_type: "subscription", reference_id: residentId },
    ]);
    expect(await sweep()).toEqual({ renewed: [], failed: [], topUps: [] });
    t.clock.advance(86_400);
    expect(await sweep()).toEqual({ renewed: [], failed: [], topUps: [] });
    expect(await balanceOf(t, ada.userId)).toBe(48);
    expect((await userMessages()).map((m) => m.title)).toEqual(["Subscription renewed"]);
    const audit = await sql(
      t,
      `select allowed, target_type, target_ref, subject_id from user_audit_log
      where action = 'renew_subscription'`,
    );
    expect(audit).toEqual([
      { allowed: true, target_type: "subscription", target_ref: ada.userId, subject_id: ada.userId },
    ]);
  });

  test("the window: more than 3 days ahead waits, an end already passed is not renewed", async () => {
    const later = await insertResident(t, ada.userId, {
      auto_renewal: true,
      subscription_end_date: new Date(endsIn(3).getTime() + 1),
    });
    const bob = await t.register("bob@example.org");
    await insertResident(t, bob.userId, { auto_renewal: true, subscription_end_date: endsIn(0) });
    await fund(admin, ada.userId, 500);
    await fund(admin, bob.userId, 500);
    expect(await sweep()).toEqual({ renewed: [], failed: [], topUps: [] });
    t.clock.advance(1);
    expect((await sweep()).renewed).toEqual([later]);
  });

  test("without auto_renewal, or not active, nothing is renewed", async () => {
    await insertResident(t, ada.userId, { auto_renewal: false, subscription_end_date: endsIn(1) });
    const bob = await t.register("bob@example.org");
    await insertResident(t, bob.userId, { auto_renewal: true, status: "suspended", subscription_end_date: endsIn(1) });
    await fund(admin, ada.userId, 500);
    await fund(admin, bob.userId, 500);
    expect(await sweep()).toEqual({ renewed: [], failed: [], topUps: [] });
    expect(await balanceOf(t, ada.userId)).toBe(500);
    expect(await balanceOf(t, bob.userId)).toBe(500);
  });

  test("a resident without a plan of its own renews for 1_month and keeps no plan", async () => {
    const residentId = await insertResident(t, ada.userId, {
      auto_renewal: true,
      subscription_plan: null,
      subscription_end_date: endsIn(2),
    });
    await fund(admin, ada.userId, 10);
    expect((await sweep()).renewed).toEqual([residentId]);
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({
      plan: null,
      end: "2026-12-25T10:00:00.000Z",
    });
  });

  test("a short wallet posts one alert a day and a refused audit row; nothing is debited or extended", async () => {
    const residentId = await insertResident(t, ada.userId, { auto_renewal: true, subscription_end_date: endsIn(3) });
    await fund(admin, ada.userId, 100);
    expect(await sweep()).toEqual({ renewed: [], failed: [residentId], topUps: [] });
    const [alert] = await userMessages();
    expect(alert).toMatchObject({ title: "Automatic renewal failed", message_type: "alert" });
    expect(alert?.body).toContain("costs 102.00 USD and the wallet holds 100.00 USD");
    expect(await sql(t, `select allowed, target_type from user_audit_log where action = 'renew_subscription'`)).toEqual(
      [{ allowed: false, target_type: "subscription" }],
    );
    t.clock.advance(3600);
    expect((await sweep()).failed).toEqual([residentId]);
    expect(await userMessages()).toHaveLength(1);
    expect(await balanceOf(t, ada.userId)).toBe(100);
    expect(await datesOf(t, "digital_resident", residentId)).toMatchObject({ end: endsIn(3).toISOString() });
    // The next UTC day brings the next alert; once the wallet is funded the renewal goes through.
    t.clock.set("2026-11-24T00:00:00.000Z");
    await sweep();
    expect(await userMessages()).toHaveLength(2);
    // (the administrator's session has expired by now: the wallet is set directly)
    await sql(t, `update credit_balance set balance = 102 where user_id = ?`, [ada.userId]);
    expect((await sweep()).renewed).toEqual([residentId]);
    expect(await balanceOf(t, ada.userId)).toBe(0);
  });

  test("a short wallet with auto top-up enabled starts one top-up (per day) and says so", async () => {
    await insertResident(t, ada.userId, { auto_renewal: true, subscription_end_date: endsIn(3) });
    await fund(admin, ada.userId, 5);
    await enableAutoTopUp(ada.userId);
    const { calls, deps } = recordingTopUp();
    expect((await sweep(deps)).topUps).toEqual(["topup-1"]);
    expect(calls).toEqual([{ userId: ada.userId, now: "2026-11-23T10:00:00.000Z" }]);
    expect((await userMessages())[0]?.body).toContain("An automatic top-up was started");
    t.clock.advance(3600);
    await sweep(deps);
    expect(calls).toHaveLength(1);
  });

  test("a short wallet without auto top-up does not start one", async () => {
    await insertResident(t, ada.userId, { auto_renewal: true, subscription_end_date: endsIn(3) });
    await fund(admin, ada.userId, 5);
    const { calls, deps } = recordingTopUp();
    await sweep(deps);
    expect(calls).toEqual([]);
    expect((await userMessages())[0]?.body).toContain("Top up your credit wallet");
  });

  test("a top-up that fails to start still leaves the alert", async () => {
    await insertResident(t, ada.userId, { auto_renewal: true, subscription_end_date: endsIn(3) });
    await fund(admin, ada.userId, 5);
    await enableAutoTopUp(ada.userId);
    const errors: unknown[] = [];
    const out = await sweep({
      onShortWallet: async () => {
        throw new Error("card provider down");
      },
      log: { error: (o: unknown) => errors.push(o) },
    });
    expect(out.topUps).toEqual([]);
    expect(errors).toHaveLength(1);
    expect((await userMessages()).map((m) => m.title)).toEqual(["Automatic renewal failed"]);
  });
});

describe("auto-renewal sweep: companies", () => {
  test("renews a company from its owner's wallet for its plan's duration and posts the CompanyMessage", async () => {
    const companyId = await insertCompany(t, ada.userId, {
      auto_renewal: true,
      subscription_plan: "monthly",
      subscription_end_date: endsIn(1),
    });
    await fund(admin, ada.userId, 100);
    expect(await sweep()).toEqual({ renewed: [companyId], failed: [], topUps: [] });
    expect(await datesOf(t, "zone_company", companyId)).toMatchObject({ end: "2026-12-24T10:00:00.000Z" });
    expect(await balanceOf(t, ada.userId)).toBe(10);
    expect(await count(t, "company_message", "company_id = ? and title = 'Subscription renewed'", [companyId])).toBe(1);
    expect((await sweep()).renewed).toEqual([]);
  });

  test("a short owner's wallet posts one CompanyMessage alert a day and starts the top-up", async () => {
    const companyId = await insertCompany(t, ada.userId, { auto_renewal: true, subscription_end_date: endsIn(1) });
    await fund(admin, ada.userId, 100);
    await enableAutoTopUp(ada.userId);
    const { calls, deps } = recordingTopUp();
    expect(await sweep(deps)).toEqual({ renewed: [], failed: [companyId], topUps: ["topup-1"] });
    await sweep(deps);
    expect(calls).toHaveLength(1);
    const alerts = await sql(t, `select message_type from company_message where company_id = ?`, [companyId]);
    expect(alerts).toEqual([{ message_type: "alert" }]);
    expect(await sql(t, `select allowed, target_ref from user_audit_log where action = 'renew_subscription'`)).toEqual([
      { allowed: false, target_ref: companyId },
    ]);
  });

  test("inactive companies are not renewed", async () => {
    await insertCompany(t, ada.userId, { auto_renewal: true, status: "inactive", subscription_end_date: endsIn(1) });
    await fund(admin, ada.userId, 5000);
    expect(await sweep()).toEqual({ renewed: [], failed: [], topUps: [] });
  });
});
