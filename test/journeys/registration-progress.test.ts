import { expect, test } from "vitest";
import { sandboxKycCallback } from "../../src/integrations/identity/sandbox-kyc.ts";
import type { Client } from "../support/app.ts";
import { expectReached } from "../support/reached.ts";
import {
  journeyCast,
  newKeypair,
  postKycVerdict,
  postMobileMoneySucceeded,
  registerPerson,
  residencyPrice,
  signRequiredContracts,
  verifyEmailByLink,
} from "./support.ts";

// Seed 001, registration: a newcomer's progress as the registration flow and the onboarding tiers report it after
// each step (the mobile-money payment made before identity verification, and the provider reporting the scan as
// started before its verdict). Public API only (see support.ts).

expectReached({
  RegistrationFlowStatus: [
    "identity_pending",
    "identity_complete",
    "personal_info_complete",
    "payment_pending",
    "payment_complete",
    "kyc_pending",
    "kyc_complete",
    "registration_complete",
  ],
  OnboardingStepStatus: ["locked", "available", "completed"],
  KycStatus: ["pending", "in_progress", "completed"],
});

const cast = journeyCast({});

test("a newcomer's registration progress, step by step", async () => {
  const { zone } = cast;
  const { t } = zone;
  const L = "locked";
  const A = "available";
  const C = "completed";
  const show = async (c: Client, status: string, steps: string[]) => {
    const flow = await c.callOk("registrationservice.get_status", { entity_type: "resident" });
    expect(flow.status).toBe(status);
    const onb = await c.callOk("creditservice.get_onboarding_status", {});
    expect(onb.steps.map((s) => s.key)).toEqual([
      "verify_email",
      "create_resident",
      "verify_identity",
      "fund_wallet",
      "activate_residency",
      "register_company",
    ]);
    expect(onb.steps.map((s) => s.status)).toEqual(steps);
  };
  const ada = await registerPerson(zone, "ada@example.org");
  await show(ada, "identity_pending", [A, L, L, L, L, L]);
  await verifyEmailByLink(zone, ada);
  await show(ada, "identity_complete", [C, A, L, L, L, L]);
  const made = await ada.callOk("residentservice.create", {
    data: { email: "ada@example.org", first_name: "Ada", last_name: "Lovelace", phone: "+255 700 000 001" },
  });
  await show(ada, "personal_info_complete", [C, C, A, L, L, L]);
  const price = await residencyPrice(zone, "1_year");
  const order = await ada.callOk("paymentservice.initiate_mobilepay", {
    entity_id: made.resident_id,
    entity_type: "resident",
    amount: price,
    currency: "USD",
    description: "Residency",
    payment_purpose: "resident_subscription",
    subscription_plan: "1_year",
  });
  await show(ada, "payment_pending", [C, C, A, L, L, L]);
  await postMobileMoneySucceeded(zone, order.mobilepay_order_id, price);
  await show(ada, "payment_complete", [C, C, A, L, L, L]);
  const keys = newKeypair();
  const kyc = await ada.callOk("kycservice.start_verification", {
    resident_id: made.resident_id,
    public_key: keys.publicKey,
  });
  await show(ada, "kyc_pending", [C, C, A, L, L, L]);
  expect((await ada.callOk("kycservice.check_status", { session_id: kyc.session_id })).status).toBe("pending");
  const scan = kyc.kyc_url.split("/").pop() ?? "";
  const now = t.clock.now();
  const { body, headers } = sandboxKycCallback(
    t.config.webhookSecret,
    {
      event_id: "evt-started-1",
      scan_ref: scan,
      verdict: "pending",
      kyc_provider_id: `sbx-id-${scan.slice(-24)}`,
      identity_verified: false,
      document_verified: false,
      liveness_verified: false,
      verification_level: "full",
      reason: null,
      personal_data: null,
      occurred_at: now.toISOString(),
    },
    now,
  );
  // The provider reports the scan as started: the session is in progress.
  const started = await t.post("/rpc", body, headers);
  expect(started.error).toBeUndefined();
  expect((await ada.callOk("kycservice.check_status", { session_id: kyc.session_id })).status).toBe("in_progress");
  await show(ada, "kyc_pending", [C, C, A, L, L, L]);
  await postKycVerdict(zone, kyc.kyc_url);
  expect((await ada.callOk("kycservice.check_status", { session_id: kyc.session_id })).status).toBe("completed");
  // Paid and verified, but the registration contracts are not signed: activation waits for them.
  await show(ada, "kyc_complete", [C, C, C, A, L, L]);
  const early = await ada.callOk("registrationservice.activate_if_complete");
  expect(early).toMatchObject({ activated: false, missing_steps: ["contracts"] });
  await signRequiredContracts(zone, ada, "Ada Lovelace");
  expect(await ada.callOk("registrationservice.activate_if_complete")).toMatchObject({
    activated: true,
    missing_steps: [],
  });
  await show(ada, "registration_complete", [C, C, C, A, C, L]);
  expect(await ada.callOk("residentservice.get", { resident_id: made.resident_id })).toMatchObject({
    status: "active",
    subscription_plan: "1_year",
  });
});
