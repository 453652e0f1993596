import { afterAll, beforeAll, expect, test } from "vitest";
import {
  newKeypair,
  passKyc,
  postMobileMoneySucceeded,
  registerPerson,
  residencyPrice,
  signRequiredContracts,
  startZone,
  verifyEmailByLink,
  type Zone,
} from "../journeys/support.ts";
import type { Client } from "../support/app.ts";

// Issue 30: registrationservice.get_status reports monotone steps (a later step never true while an earlier one is
// false), always agreeing with its status, whatever order the records appear in. Public API only: KYC is passed
// before the email is verified and before the payment, the order a user may well take.

let zone: Zone;
beforeAll(async () => {
  zone = await startZone();
});
afterAll(() => zone?.t.close());

const ORDER = ["identity", "personal_info", "payment", "kyc", "registration"] as const;

async function steps(client: Client) {
  const s = await client.callOk("registrationservice.get_status", { entity_type: "resident" });
  const flags = [
    s.identity_complete,
    s.personal_info_complete,
    s.payment_complete,
    s.kyc_complete,
    s.registration_complete,
  ];
  // Monotone: once a step is false, every later one is false.
  expect(flags).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
  return { status: s.status, recorded: s.recorded_status, done: ORDER.filter((_, i) => flags[i]) };
}

test("KYC passed first, before the email and the payment: kyc_complete stays false until every earlier step is done", async () => {
  const ada = await registerPerson(zone, "ada@example.org");
  const made = await ada.callOk("residentservice.create", {
    data: { email: "ada@example.org", first_name: "Ada", last_name: "Lovelace", phone: "+255 700 000 001" },
  });
  const keys = newKeypair();
  await passKyc(zone, ada, made.resident_id, keys.publicKey);
  expect((await ada.callOk("registrationservice.check_kyc_complete")).kyc_complete).toBe(true);
  // The server recorded the KYC step; the reported flow is the records' first step not done.
  expect(await steps(ada)).toEqual({ status: "identity_pending", recorded: "kyc_complete", done: [] });

  await verifyEmailByLink(zone, ada);
  expect(await steps(ada)).toEqual({
    status: "personal_info_complete",
    recorded: "kyc_complete",
    done: ["identity", "personal_info"],
  });

  const price = await residencyPrice(zone, "1_year");
  const order = await ada.callOk("paymentservice.initiate_mobilepay", {
    entity_id: made.resident_id,
    entity_type: "resident",
    amount: price,
    currency: "USD",
    description: "Residency, one year",
    payment_purpose: "resident_subscription",
    subscription_plan: "1_year",
  });
  expect((await steps(ada)).status).toBe("payment_pending");
  await postMobileMoneySucceeded(zone, order.mobilepay_order_id, price);
  // Paid, KYC done, contracts not signed: the flow has no contracts status, so it reads kyc_complete.
  expect(await steps(ada)).toEqual({
    status: "kyc_complete",
    recorded: "kyc_complete",
    done: ["identity", "personal_info", "payment", "kyc"],
  });

  await signRequiredContracts(zone, ada, "Ada Lovelace");
  expect((await ada.callOk("registrationservice.activate_if_complete")).activated).toBe(true);
  expect(await steps(ada)).toEqual({
    status: "registration_complete",
    recorded: "registration_complete",
    done: [...ORDER],
  });
});

test("a user who has not started: every step false, nothing recorded", async () => {
  const bob = await registerPerson(zone, "bob@example.org");
  expect(await bob.callOk("registrationservice.get_status", { entity_type: "company" })).toMatchObject({
    status: "identity_pending",
    identity_complete: false,
    kyc_complete: false,
    recorded_status: null,
    updated_at: null,
  });
});
