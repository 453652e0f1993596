import { expect, test } from "vitest";
import { expectReached } from "../support/reached.ts";
import {
  journeyCast,
  newKeypair,
  postKycVerdict,
  registerPerson,
  signIn,
  verifyEmailByLink,
  type Zone,
} from "./support.ts";

// Seed 000, KYC: the identity provider's other verdicts, as the sandbox gives them by a marker in the person's name
// (src/integrations/identity/sandbox-kyc.ts): a suspected identity held for an administrator, who rejects it (the
// resident starts again) or approves it; a denied identity fails; a provider that never answers lets the session
// expire at its deadline. Public API only (see support.ts).

expectReached({
  KycStatus: ["pending", "needs_review", "failed", "completed", "expired"],
});

const cast = journeyCast({});

/** A newcomer with a verified email and a pending resident named `first last`; answers the session and ids. */
async function newcomer(zone: Zone, email: string, first: string, last: string) {
  const client = await registerPerson(zone, email);
  await verifyEmailByLink(zone, client);
  const made = await client.callOk("residentservice.create", {
    data: { email, first_name: first, last_name: last, phone: "+255 700 000 002" },
  });
  return { client, residentId: made.resident_id, keys: newKeypair() };
}

test("KYC verdicts other than approved: review, rejection, denial, expiry", async () => {
  const { zone } = cast;
  const { t } = zone;

  // Suspected: held for review; the administrator rejects it, with a reason the owner reads.
  const dana = await newcomer(zone, "dana@example.org", "Dana", "Sandbox-Suspected");
  const start = () =>
    dana.client.callOk("kycservice.start_verification", {
      resident_id: dana.residentId,
      public_key: dana.keys.publicKey,
    });
  const first = await start();
  expect(first.status).toBe("pending");
  await postKycVerdict(zone, first.kyc_url);
  const held = await dana.client.callOk("kycservice.check_status", { session_id: first.session_id });
  expect(held).toMatchObject({ status: "needs_review", liveness_verified: false, provider_verdict: "suspected" });
  // Only an administrator decides, and only a held session.
  const notAdmin = await dana.client.call("kycservice.approve", { session_id: first.session_id });
  expect("error" in notAdmin).toBe(true);
  const rejected = await zone.admin.callOk("kycservice.reject", {
    session_id: first.session_id,
    reason: "the selfie does not match the passport",
  });
  expect(rejected).toMatchObject({ status: "failed", review_reason: "the selfie does not match the passport" });
  expect(await dana.client.callOk("kycservice.check_status", { session_id: first.session_id })).toMatchObject({
    status: "failed",
    review_reason: "the selfie does not match the passport",
  });
  const again = await zone.admin.call("kycservice.approve", { session_id: first.session_id });
  expect("error" in again && again.error.data?.variant).toBe("InvalidState");
  expect((await dana.client.callOk("residentservice.get", { resident_id: dana.residentId })).status).toBe("pending");

  // She starts again; this time the administrator approves the held session: completed.
  const second = await start();
  await postKycVerdict(zone, second.kyc_url);
  const approved = await zone.admin.callOk("kycservice.approve", { session_id: second.session_id, note: "checked" });
  expect(approved.status).toBe("completed");
  expect(approved.verified_at).toBe(t.clock.now().toISOString());

  // Denied: failed at once, nothing for an administrator to decide.
  const dora = await newcomer(zone, "dora@example.org", "Dora", "Sandbox-Denied");
  const denied = await dora.client.callOk("kycservice.start_verification", {
    resident_id: dora.residentId,
    public_key: dora.keys.publicKey,
  });
  await postKycVerdict(zone, denied.kyc_url);
  expect(await dora.client.callOk("kycservice.check_status", { session_id: denied.session_id })).toMatchObject({
    status: "failed",
    identity_verified: false,
    provider_verdict: "denied",
  });
  const review = await zone.admin.call("kycservice.approve", { session_id: denied.session_id });
  expect("error" in review && review.error.data?.variant).toBe("InvalidState");

  // Silent: the provider never answers; the session reads pending up to just before its deadline, expired from it.
  const sam = await newcomer(zone, "sam@example.org", "Sam", "Sandbox-Silent");
  const silent = await sam.client.callOk("kycservice.start_verification", {
    resident_id: sam.residentId,
    public_key: sam.keys.publicKey,
  });
  const deadline = new Date(silent.expires_at).getTime();
  expect(deadline - t.clock.now().getTime()).toBe(t.config.kyc.sessionTtlS * 1000);
  t.clock.set(new Date(deadline - 1000).toISOString());
  const samAgain = await signIn(zone, "sam@example.org");
  expect((await samAgain.callOk("kycservice.check_status", { session_id: silent.session_id })).status).toBe("pending");
  t.clock.set(new Date(deadline).toISOString());
  const late = await signIn(zone, "sam@example.org");
  expect((await late.callOk("kycservice.check_status", { session_id: silent.session_id })).status).toBe("expired");
});
