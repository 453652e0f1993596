import { expect, test } from "vitest";
import { sandboxPaymentCallback } from "../../src/integrations/payments/sandbox-callbacks.ts";
import { expectReached } from "../support/reached.ts";
import { journeyCast, residencyPrice, signInAgain } from "./support.ts";

// Seed 001, payments other than an instant success: a residency renewal paid in bitcoin, confirming block by block
// on the sandbox chain until the required count (the payment sweep watches it), a mobile-money top-up the provider
// reports failed, and one the payer never completes, expired by the sweep at its deadline. The wallet moves only for
// the confirmed payment's purpose; a suspended resident cannot start a subscription payment. Public API only (see
// support.ts).

expectReached({
  PaymentStatus: ["pending", "confirming", "confirmed", "failed", "expired"],
  ResidentStatus: ["active", "suspended"],
  CreditTransactionStatus: ["completed"],
});

const cast = journeyCast({ ada: { first_name: "Ada", last_name: "Lovelace" } });

test("payments: bitcoin confirmations, a failed and an expired mobile-money payment", async () => {
  const { zone, ada } = cast;
  const { t } = zone;
  const paymentStatus = async (sid: string) => (await ada.client.callOk("payment.get", { sid })).status;
  const balance = async () => (await ada.client.callOk("creditservice.get_balance")).balance;

  // Bitcoin: a year more of the resident's plan (its price, as get_payment_wallet requires), one block (10 minutes) per confirmation, three required.
  const price = await residencyPrice(zone, "1_year");
  const before = await ada.client.callOk("residentservice.get", { resident_id: ada.residentId });
  const wallet = await ada.client.callOk("paymentservice.get_payment_wallet", {
    resident_id: ada.residentId,
    payment_type: "bitcoin",
    amount: price,
    currency: "USD",
  });
  expect(wallet.status).toBe("pending");
  const opened = t.clock.now().getTime();
  const at = async (seconds: number) => {
    t.clock.set(new Date(opened + seconds * 1000).toISOString());
    await t.app.runJobs();
    await signInAgain(zone, ada);
  };
  await at(599);
  expect(await paymentStatus(wallet.payment_id)).toBe("pending");
  await at(600);
  expect(await ada.client.callOk("payment.get", { sid: wallet.payment_id })).toMatchObject({
    status: "confirming",
    confirmation_count: 1,
  });
  await at(1200);
  expect(await paymentStatus(wallet.payment_id)).toBe("confirming");
  expect((await ada.client.callOk("residentservice.get", { resident_id: ada.residentId })).subscription_end_date).toBe(
    before.subscription_end_date,
  );
  await at(1800);
  expect(await ada.client.callOk("payment.get", { sid: wallet.payment_id })).toMatchObject({
    status: "confirmed",
    confirmation_count: 3,
  });
  const renewed = await ada.client.callOk("residentservice.get", { resident_id: ada.residentId });
  // A year more from the end of the current period (not from the confirmation).
  expect(before.subscription_end_date).toBe("2027-11-23T10:00:00.000Z");
  expect(renewed).toMatchObject({
    status: "active",
    subscription_plan: "1_year",
    subscription_end_date: "2028-11-23T10:00:00.000Z",
  });

  // Mobile money, reported failed by the provider: nothing credited, the payment final.
  const start = await balance();
  const failing = await ada.client.callOk("creditservice.initiate_topup", { amount: 20.93, provider: "mobilepay" });
  const now = t.clock.now();
  const data = {
    event_id: "evt-pay-failed-1",
    event_type: "payment.updated",
    order_id: failing.mobilepay_order_id,
    status: "failed" as const,
    amount: 20.93,
    currency: "USD",
    occurred_at: now.toISOString(),
  };
  const { body, headers } = sandboxPaymentCallback(t.config.webhookSecret, data, now);
  expect((await t.post("/rpc", body, headers)).error).toBeUndefined();
  expect(await paymentStatus(failing.payment_id)).toBe("failed");
  expect(await balance()).toBe(start);
  // A success reported after the failure changes nothing.
  const late = sandboxPaymentCallback(
    t.config.webhookSecret,
    { ...data, event_id: "evt-pay-late-1", status: "succeeded" as const },
    now,
  );
  await t.post("/rpc", late.body, late.headers);
  expect(await paymentStatus(failing.payment_id)).toBe("failed");
  expect(await balance()).toBe(start);

  // Mobile money the payer never completes: pending up to its deadline, expired by the sweep from it.
  const abandoned = await ada.client.callOk("creditservice.initiate_topup", { amount: 30, provider: "mobilepay" });
  const deadline = new Date(abandoned.expires_at).getTime();
  t.clock.set(new Date(deadline - 1000).toISOString());
  await t.app.runJobs();
  await signInAgain(zone, ada);
  expect(await paymentStatus(abandoned.payment_id)).toBe("pending");
  t.clock.set(new Date(deadline).toISOString());
  await t.app.runJobs();
  await signInAgain(zone, ada);
  expect(await paymentStatus(abandoned.payment_id)).toBe("expired");
  expect(await balance()).toBe(start);
  // The ledger holds completed movements only: the activation top-up and debit; nothing for the failed, expired
  // or chain-paid payments (the crypto renewal was paid outside the wallet).
  const ledger = await ada.client.callOk("creditservice.list_transactions", { page: 1, page_size: 50 });
  expect(ledger.items.map((r) => [r.tx_type, r.status]).sort()).toEqual(
    [
      ["deduction", "completed"],
      ["top_up", "completed"],
    ].sort(),
  );

  // Suspended by the administrator: a subscription payment would take money for nothing, so none can start.
  const suspended = await zone.admin.callOk("residentservice.suspend", {
    resident_id: ada.residentId,
    reason: "Document review",
  });
  expect(suspended.status).toBe("suspended");
  const byMobile = await ada.client.call("paymentservice.initiate_mobilepay", {
    entity_id: ada.residentId,
    entity_type: "resident",
    amount: price,
    currency: "USD",
    description: "Residency, one year",
    payment_purpose: "resident_subscription",
    subscription_plan: "1_year",
  });
  expect(byMobile).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState", status: "suspended" } } });
  const byChain = await ada.client.call("paymentservice.get_payment_wallet", {
    resident_id: ada.residentId,
    payment_type: "ethereum",
    amount: price,
    currency: "USD",
  });
  expect(byChain).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState", status: "suspended" } } });
  const reinstated = await zone.admin.callOk("residentservice.reinstate", {
    resident_id: ada.residentId,
    reason: "Documents checked",
  });
  expect(reinstated).toMatchObject({ status: "active", subscription_end_date: "2028-11-23T10:00:00.000Z" });
});
