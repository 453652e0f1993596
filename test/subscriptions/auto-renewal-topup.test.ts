import { beforeEach, expect, test } from "vitest";
import { autoTopUpHook, sweepRenewals } from "../../src/services/shared/subscriptions/auto-renewal-sweep.ts";
import { balanceOf, postVerdict, verdict } from "../payments/support.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";
import { insertResident } from "./support.ts";

// The auto-renewal sweep wired to CreditService's real automatic top-up (the hook the auto-renewal job uses): a short
// wallet with a saved card gets one card top-up charged; once the provider confirms it, the next run renews.

let t: TestApp;
let ada: Client;
beforeEach(async () => {
  t = await startTestApp({ paymentSweepIntervalS: 0 });
  ada = await t.register("ada@example.org");
});

const endsIn = (days: number) => new Date(t.clock.now().getTime() + days * 86_400_000);
const sweep = () =>
  sweepRenewals(t.app.runtime, t.clock.now(), {
    onShortWallet: autoTopUpHook(t.config),
  });
const autoPayments = () =>
  sql<{ status: string; external_id: string; amount: string }>(
    t,
    `select status, external_id, amount::text from payment where auto_topup and user_id = ? order by created_at`,
    [ada.userId],
  );

/** A confirmed card top-up of 10 USD (funds the wallet, saves the card), then auto top-up of 200 below 10. */
async function walletWithAutoTopUp() {
  const r = await ada.callOk("creditservice.initiate_topup", { amount: 10, provider: "cardpsp" });
  await postVerdict(t, verdict(r.mobilepay_order_id, "succeeded", 10, { payment_method_id: "pm_ada" }));
  await ada.callOk("creditservice.setup_auto_topup", { amount: 200, threshold: 10 });
}

test("a short wallet with auto top-up: one card top-up charged, credited on confirmation, then renewed", async () => {
  await walletWithAutoTopUp();
  const residentId = await insertResident(t, ada.userId, { auto_renewal: true, subscription_end_date: endsIn(3) });
  const first = await sweep();
  expect(first).toMatchObject({ renewed: [], failed: [residentId], topUps: ["auto_topup_started"] });
  const [payment] = await autoPayments();
  expect(payment).toMatchObject({ status: "pending", amount: "200.00" });
  expect(payment?.external_id).not.toBe("");
  const alert = await sql<{ body: string }>(t, `select body from user_message where user_id = ?`, [ada.userId]);
  expect(alert[0]?.body).toContain("An automatic top-up was started");
  // A second run the same day starts nothing more and posts nothing more.
  t.clock.advance(3600);
  expect((await sweep()).topUps).toEqual([]);
  expect(await autoPayments()).toHaveLength(1);
  // The card provider confirms: the wallet is credited once; the next run renews from it.
  const ok = await postVerdict(t, verdict(payment?.external_id ?? "", "succeeded", 200));
  expect(ok.status).toBe(200);
  expect(await balanceOf(t, ada.userId)).toBe(210);
  t.clock.advance(3600);
  expect((await sweep()).renewed).toEqual([residentId]);
  expect(await balanceOf(t, ada.userId)).toBeLessThan(210);
});

test("a short wallet without a saved card starts no top-up and says to top up by hand", async () => {
  const residentId = await insertResident(t, ada.userId, { auto_renewal: true, subscription_end_date: endsIn(3) });
  await sql(
    t,
    `insert into credit_balance (sid, user_id, balance, lifetime_earned, lifetime_spent, auto_topup_enabled,
    auto_topup_amount, auto_topup_threshold, created_at, updated_at) values (gen_random_uuid()::text, ?, 1, 1, 0, true,
    50, 10, now(), now())`,
    [ada.userId],
  );
  expect(await sweep()).toMatchObject({ failed: [residentId], topUps: [] });
  expect(await autoPayments()).toEqual([]);
  const alert = await sql<{ body: string }>(t, `select body from user_message where user_id = ?`, [ada.userId]);
  expect(alert[0]?.body).toContain("Top up your credit wallet");
});
