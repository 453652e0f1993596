import { expect, test } from "vitest";
import type { Client } from "../support/app.ts";
import { expectReached } from "../support/reached.ts";
import {
  cents,
  journeyCast,
  newKeypair,
  postKycVerdict,
  postMobileMoneySucceeded,
  registerPerson,
  residencyPrice,
  signIn,
  signRequiredContracts,
  topUp,
  verifyEmailByLink,
} from "./support.ts";

// Seed 000/001, resident onboarding: a newcomer registers, verifies the email through the link, creates the
// resident, signs the registration contracts, passes KYC by the identity provider's webhook, pays the plan by mobile
// money (the provider's webhook activates), renews from the wallet, lapses when the test clock passes the end, and
// renews again. Public API only (see support.ts).
expectReached({
  ResidentStatus: ["pending", "active", "expired"],
  KycStatus: ["pending", "completed"],
  SubscriptionStatus: ["none", "active", "expiring", "suspended"],
  RegistrationFlowStatus: ["personal_info_complete", "registration_complete"],
});

const cast = journeyCast({});

const STEPS = [
  "register",
  "verify the email by its link",
  "create the resident",
  "sign the registration contracts",
  "start KYC",
  "KYC approved by the provider's webhook",
  "pay the plan by mobile money: the provider's webhook activates",
  "store the client keypair",
  "top up the wallet by mobile money",
  "renew for a month from the wallet",
  "the subscription runs out on the test clock",
  "renew after the lapse",
] as const;

test(`resident onboarding, renewal and expiry (${STEPS.length} steps)`, async () => {
  const { zone } = cast;
  const { t } = zone;
  const done: string[] = [];
  const step = (name: (typeof STEPS)[number]) => done.push(name);

  step("register");
  let ada: Client = await registerPerson(zone, "ada@example.org");
  expect(await ada.callOk("authservice.me")).toMatchObject({ email: "ada@example.org", email_verified: false });

  step("verify the email by its link");
  await verifyEmailByLink(zone, ada);
  expect((await ada.callOk("authservice.me")).email_verified).toBe(true);

  step("create the resident");
  const made = await ada.callOk("residentservice.create", {
    data: { email: "ada@example.org", first_name: "Ada", last_name: "Lovelace", phone: "+255 700 000 001" },
  });
  expect(made).toMatchObject({ status: "pending", resident_id: expect.stringMatching(/^FZ-\d{4}-RA\d{6}$/) });
  const residentId = made.resident_id;
  const flow = await ada.callOk("registrationservice.get_status", { entity_type: "resident" });
  expect(flow).toMatchObject({
    resident_id: residentId,
    identity_complete: true,
    personal_info_complete: true,
    payment_complete: false,
    kyc_complete: false,
    registration_complete: false,
  });

  step("sign the registration contracts");
  const signed = await signRequiredContracts(zone, ada, "Ada Lovelace");
  expect(signed).toBeGreaterThan(0);
  expect((await ada.callOk("contractservice.get_signatures")).items).toHaveLength(signed);

  step("start KYC");
  const keys = newKeypair();
  const kyc = await ada.callOk("kycservice.start_verification", {
    resident_id: residentId,
    public_key: keys.publicKey,
  });
  expect((await ada.callOk("kycservice.check_status", { session_id: kyc.session_id })).status).toBe("pending");

  step("KYC approved by the provider's webhook");
  await postKycVerdict(zone, kyc.kyc_url);
  expect(await ada.callOk("kycservice.check_status", { session_id: kyc.session_id })).toMatchObject({
    status: "completed",
    identity_verified: true,
    document_verified: true,
    liveness_verified: true,
  });
  // Still pending: the plan is not paid yet, and activation says so.
  expect((await ada.callOk("residentservice.get", { resident_id: residentId })).status).toBe("pending");
  const early = await ada.callOk("registrationservice.activate_if_complete");
  expect(early.activated).toBe(false);
  expect(early.missing_steps).toContain("payment");

  step("pay the plan by mobile money: the provider's webhook activates");
  const price = await residencyPrice(zone, "1_year");
  const order = await ada.callOk("paymentservice.initiate_mobilepay", {
    entity_id: residentId,
    entity_type: "resident",
    amount: price,
    currency: "USD",
    description: "Residency, one year",
    payment_purpose: "resident_subscription",
    subscription_plan: "1_year",
  });
  expect(order.status).toBe("pending");
  await postMobileMoneySucceeded(zone, order.mobilepay_order_id, price);
  const activeAt = t.clock.now();
  const active = await ada.callOk("residentservice.get", { resident_id: residentId });
  expect(active).toMatchObject({ status: "active", subscription_plan: "1_year" });
  expect(active.subscription_start_date).toBe(activeAt.toISOString());
  const yearEnd = "2027-11-23T10:00:00.000Z";
  expect(active.subscription_end_date).toBe(yearEnd);
  expect(await ada.callOk("registrationservice.get_status", { entity_type: "resident" })).toMatchObject({
    status: "registration_complete",
    payment_complete: true,
    kyc_complete: true,
    registration_complete: true,
  });
  expect(await ada.callOk("paymentservice.get_subscription_status")).toMatchObject({
    entity_id: residentId,
    status: "active",
    subscription_end_date: yearEnd,
    days_remaining: 365,
  });
  // The payment was taken by the provider, not from the wallet.
  expect((await ada.callOk("creditservice.get_balance")).balance).toBe(0);

  step("store the client keypair");
  const stored = await ada.callOk("keypairservice.store_client_keypair", {
    entity_type: "resident",
    entity_id: residentId,
    public_key: keys.publicKey,
    encrypted_private_key: keys.encryptedPrivateKey,
  });
  expect(stored).toMatchObject({ public_key: keys.publicKey });
  expect((await ada.callOk("residentservice.get", { resident_id: residentId })).public_key).toBe(keys.publicKey);

  step("top up the wallet by mobile money");
  expect(await topUp(zone, ada, 25)).toBe(25);

  step("renew for a month from the wallet");
  const monthPrice = await residencyPrice(zone, "1_month");
  const renewed = await ada.callOk("paymentservice.initiate_renewal", { plan: "1_month" });
  const monthEnd = "2027-12-23T10:00:00.000Z";
  expect(renewed).toMatchObject({
    status: "active",
    subscription_end_date: monthEnd,
    amount_charged: monthPrice,
    balance_after: cents(25 - monthPrice),
  });
  expect((await ada.callOk("creditservice.get_balance")).balance).toBe(cents(25 - monthPrice));
  // The one-year plan stays the resident's plan (a one-month renewal keeps it).
  expect((await ada.callOk("residentservice.get", { resident_id: residentId })).subscription_plan).toBe("1_year");

  step("the subscription runs out on the test clock");
  t.clock.set("2027-11-23T10:00:00.000Z");
  ada = await signIn(zone, "ada@example.org");
  expect((await ada.callOk("paymentservice.get_subscription_status")).status).toBe("expiring");
  t.clock.set(monthEnd);
  ada = await signIn(zone, "ada@example.org");
  expect((await ada.callOk("residentservice.get", { resident_id: residentId })).status).toBe("expired");
  expect(await ada.callOk("paymentservice.get_subscription_status")).toMatchObject({
    status: "suspended",
    days_remaining: 0,
  });
  // An expired resident no longer acts: it cannot open a treasury account (create needs an active resident).
  const refused = await ada.call("treasuryservice.create_resident_account", {
    resident_id: residentId,
    data: {
      kind: "bank_account",
      name: "Main",
      currency: "USD",
      bank_name: "Harbour Bank",
      account_number: "12345678",
    },
  });
  expect("error" in refused && refused.error.code).toBe(-32005);

  step("renew after the lapse");
  t.clock.advance(24 * 3600);
  ada = await signIn(zone, "ada@example.org");
  const back = await ada.callOk("paymentservice.initiate_renewal", { plan: "1_month" });
  expect(back).toMatchObject({
    status: "active",
    subscription_start_date: t.clock.now().toISOString(),
    subscription_end_date: "2028-01-24T10:00:00.000Z",
    balance_after: cents(25 - 2 * monthPrice),
  });
  expect((await ada.callOk("residentservice.get", { resident_id: residentId })).status).toBe("active");

  expect(done).toEqual([...STEPS]);
});
