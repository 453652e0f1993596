import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { expectReached } from "../support/reached.ts";
import {
  adminResidentKey,
  approvalSignature,
  auditOf,
  confirmedSubscription,
  confirmedTopUp,
  deliverKycVerdict,
  type PartnerClient,
  registration,
  resellerKey,
  rotation,
  type SigningKey,
  sealedDocument,
  sealedPrivateKey,
  signedRequest,
  signingKey,
} from "./partner-support.ts";

/*
 * Seed journey: a partner's reseller onboarding (issue 30). Every step over HTTP through public operations, the
 * sandbox payment provider's signed webhook and the partner's own keys; no SQL and no repository in the set-up.
 * Steps: 1 admin creates the partner, 2 reseller key, 3 signing key registered, 4 wallet topped up (payment
 * confirmed by webhook), 5 signed request submitted, 6 KYC artifact attached, 7 admin review (details, artifact
 * view, prerequisites), 8 approval creates the partner_created resident, 9 reseller creates a company for it,
 * 10 signing key rotated, 11 old-key signature refused and new-key accepted, 12 who sees the audit trail.
 * The steps share one app and run in order (each test builds on the previous one).
 */

expectReached({
  RegistrationRequestStatus: ["pending", "under_review", "approved", "needs_info", "rejected"],
  PaymentStatus: ["pending", "confirmed"],
  KycStatus: ["pending", "completed"],
  ResidentStatus: ["pending", "active"],
});

let t: TestApp;
let admin: Client;
let adminKey: SigningKey;
let partner: PartnerClient;
const first = signingKey();
const second = signingKey();
const client = signingKey();
let paymentId: string;
let requestId: string;
let secondRequestId: string;
let attestationId: string;
let residentId: string;

beforeAll(async () => {
  t = await startTestApp({ rateLimits: { ...loadConfig({}).rateLimits, perAddressPerMinute: 100_000 } });
  admin = await t.admin();
  adminKey = await adminResidentKey(admin);
});
afterAll(() => t.close());

describe("partner onboarding through the public API", () => {
  test("1-2. the administrator creates a partner; its credentials mint a reseller key; no signing key yet", async () => {
    const created = await admin.callOk("partnerservice.create_partner", {
      name: "Zanzibar Residency Partners",
      allow_company_creation: true,
    });
    expect(created).toMatchObject({ is_active: true, signing_public_key: null, allow_company_creation: true });
    partner = await resellerKey(t, created);
    expect(await partner.callOk("partnerservice.get_signing_keys")).toEqual({
      partner_id: partner.partnerId,
      signing_public_key: null,
      current_version: null,
      items: [],
    });
    // Without a key every submission is refused, as before this issue: the journey starts there.
    const early = await partner.call(
      "registrationrequestservice.submit_registration_request",
      signedRequest(partner.partnerId, first, { client_email: "early@example.org", client_name: "Early Bird" }),
    );
    expect(early).toMatchObject({
      error: { code: -32006, data: { variant: "InvalidSignature", reason: "no_signing_key" } },
    });
  });

  test("3. the partner registers its signing key (version 1, proof of possession); the administrator sees it", async () => {
    const keys = await partner.callOk("partnerservice.register_signing_key", registration(partner.partnerId, 1, first));
    expect(keys).toMatchObject({ signing_public_key: first.publicHex, current_version: 1 });
    expect(keys.items).toEqual([
      {
        version: 1,
        public_key: first.publicHex,
        valid_from: t.clock.now().toISOString(),
        valid_to: null,
        is_current: true,
      },
    ]);
    const listed = (await admin.callOk("partnerservice.list_partners")).items.find(
      (p) => p.partner_id === partner.partnerId,
    );
    expect(listed?.signing_public_key).toBe(first.publicHex);
  });

  test("4. the partner pays: a mobile-money top-up confirmed by the provider's signed webhook", async () => {
    paymentId = await confirmedTopUp(t, partner, 1000);
    expect((await partner.callOk("creditservice.get_balance", {})).balance).toBe(1000);
  });

  test("5. the partner submits a signed registration request: pending, audited partner_registration_request_submit", async () => {
    const submitted = await partner.callOk(
      "registrationrequestservice.submit_registration_request",
      signedRequest(partner.partnerId, first, {
        client_email: "Amina.Said@Example.org",
        client_name: " Amina Said ",
        payment_id: paymentId,
      }),
    );
    requestId = submitted.request_id;
    expect(submitted).toMatchObject({
      status: "pending",
      client_email: "amina.said@example.org",
      client_name: "Amina Said",
    });
    const rows = await auditOf(partner, partner.walletUserId, "registrationrequestservice.submit_registration_request");
    expect(rows.map((r) => [r.action, r.target_type, r.allowed])).toEqual([
      ["partner_registration_request_submit", "registration_request", false],
      ["partner_registration_request_submit", "registration_request", true],
    ]);
    expect(rows[1]?.target_ref).toBe(requestId);
  });

  test("6. the partner attaches its KYC evidence, sealed under its artifact key: audited kyc_artifact_submit", async () => {
    const artifact = await partner.callOk("kycservice.submit_artifact", {
      request_id: requestId,
      key_id: partner.keyId,
      partner_signature: "zrp-kyc-2026-0001",
      encrypted_payload: await sealedDocument(partner, { passport: "TZ1234567", name: "Amina Said" }),
    });
    attestationId = artifact.attestation_id;
    const rows = await auditOf(partner, partner.walletUserId, "kycservice.submit_artifact");
    expect(rows.map((r) => [r.action, r.target_type, r.target_ref, r.allowed])).toEqual([
      ["kyc_artifact_submit", "kyc_artifact", attestationId, true],
    ]);
  });

  test("7. the administrator reviews: details with the artifact, the document opened (kyc_artifact_view), prerequisites pass", async () => {
    const details = await admin.callOk("adminregistrationservice.get_registration_details", { request_id: requestId });
    expect(details).toMatchObject({ status: "pending", kyc_session_id: null, payment_id: paymentId });
    expect(details.kyc_artifacts.map((a) => [a.attestation_id, a.erased])).toEqual([[attestationId, false]]);
    const viewed = await admin.callOk("kycservice.view_artifact", { attestation_id: attestationId });
    expect(JSON.parse(viewed.payload ?? "null")).toEqual({ passport: "TZ1234567", name: "Amina Said" });
    const views = await auditOf(admin, admin.userId, "kycservice.view_artifact");
    expect(views.map((r) => [r.action, r.target_ref, r.allowed])).toEqual([["kyc_artifact_view", attestationId, true]]);
    const checked = await admin.callOk("adminregistrationservice.verify_registration_prerequisites", {
      request_id: requestId,
    });
    expect(checked.checks.filter((c) => !c.passed)).toEqual([]);
    expect(checked.checks.map((c) => c.name)).toContain("kyc_complete");
    // The check writes nothing; the administrator starts the review explicitly (issue 30).
    expect(checked.status).toBe("pending");
    const started = await admin.callOk("adminregistrationservice.start_review", {
      request_id: requestId,
      admin_email: admin.email,
    });
    expect(started.status).toBe("under_review");
    // The partner follows the review with its key.
    const status = await partner.callOk("registrationrequestservice.get_registration_request_status", {
      request_id: requestId,
    });
    expect(status.status).toBe("under_review");
  });

  test("8. approval creates the partner_created resident; audited partner_registration_request_approve", async () => {
    const details = await admin.callOk("adminregistrationservice.get_registration_details", { request_id: requestId });
    const approved = await admin.callOk("adminregistrationservice.approve_registration", {
      request_id: requestId,
      admin_email: admin.email,
      admin_signature: approvalSignature(adminKey, details, admin.email),
    });
    expect(approved).toMatchObject({ status: "approved", request_type: "resident", approved_by: admin.email });
    residentId = approved.created_entity_id ?? "";
    const resident = await partner.callOk("residentservice.get", { resident_id: residentId });
    expect(resident).toMatchObject({
      resident_type: "partner_created",
      source: "partner",
      partner_id: partner.partnerId,
      user_id: null,
      email: "amina.said@example.org",
      first_name: "Amina",
      last_name: "Said",
    });
    const status = await partner.callOk("registrationrequestservice.get_registration_request_status", {
      request_id: requestId,
    });
    expect(status).toMatchObject({ status: "approved", created_entity_id: residentId });
    const rows = await auditOf(admin, admin.userId, "adminregistrationservice.approve_registration");
    expect(rows.map((r) => [r.action, r.target_type, r.target_ref, r.allowed])).toEqual([
      ["partner_registration_request_approve", "registration_request", requestId, true],
    ]);
  });

  test("9a. the partner activates its resident: profile, sandbox KYC by webhook, the client's keypair, a paid subscription", async () => {
    // The request carries no phone: the partner completes the profile, a step of the one activation rule.
    await partner.callOk("residentservice.update", { resident_id: residentId, data: { phone: "+255777000111" } });
    const kyc = await partner.callOk("kycservice.start_verification", {
      resident_id: residentId,
      public_key: client.publicHex,
    });
    await deliverKycVerdict(t, kyc.kyc_url);
    expect((await partner.callOk("kycservice.check_status", { session_id: kyc.session_id })).status).toBe("completed");
    await partner.callOk("keypairservice.store_client_keypair", {
      entity_type: "resident",
      entity_id: residentId,
      public_key: client.publicHex,
      encrypted_private_key: sealedPrivateKey(),
    });
    await confirmedSubscription(t, partner, residentId);
    expect((await partner.callOk("residentservice.get", { resident_id: residentId })).status).toBe("active");
  });

  test("9b. the reseller creates a company for its resident, paid from the partner's wallet", async () => {
    const company = await partner.callOk("companyservice.create", {
      data: {
        name: "Amina Spice Traders FZC",
        company_type: "single_fzc",
        subscription_plan: "monthly",
        description: "Spice exports",
        address: {
          line1: "1 Shangani St",
          line2: null,
          city: "Stone Town",
          region: null,
          postal_code: null,
          country: "TZ",
        },
        shareholders: [
          { name: "Amina Said", email: "amina.said@example.org", resident_id: residentId, units: 100, role: null },
        ],
        owner_resident_id: residentId,
      },
    });
    expect(company).toMatchObject({ status: "active", owner_resident_id: residentId });
    expect((await partner.callOk("companyservice.get", { company_id: company.company_id })).company_id).toBe(
      company.company_id,
    );
    expect((await partner.callOk("creditservice.get_balance", {})).balance).toBeLessThan(1000);
  });

  test("10. the partner rotates its signing key: the old one signs the change, the new one proves possession", async () => {
    const before = t.clock.now().toISOString();
    t.clock.advance(60);
    const keys = await partner.callOk(
      "partnerservice.rotate_signing_key",
      rotation(partner.partnerId, 2, second, first),
    );
    const at = t.clock.now().toISOString();
    expect(keys.signing_public_key).toBe(second.publicHex);
    expect(keys.items).toEqual([
      { version: 2, public_key: second.publicHex, valid_from: at, valid_to: null, is_current: true },
      { version: 1, public_key: first.publicHex, valid_from: before, valid_to: at, is_current: false },
    ]);
  });

  test("11. a request signed with the retired key is refused; the same request signed with the new key is accepted", async () => {
    const client = { client_email: "juma@example.org", client_name: "Juma Ali" };
    const old = await partner.call(
      "registrationrequestservice.submit_registration_request",
      signedRequest(partner.partnerId, first, client),
    );
    expect(old).toMatchObject({
      error: { code: -32006, data: { variant: "InvalidSignature", reason: "bad_signature" } },
    });
    const fresh = await partner.callOk(
      "registrationrequestservice.submit_registration_request",
      signedRequest(partner.partnerId, second, client),
    );
    expect(fresh.status).toBe("pending");
    secondRequestId = fresh.request_id;
    // The request approved under the first key keeps its status and signature.
    const earlier = await partner.callOk("registrationrequestservice.get_registration_request_status", {
      request_id: requestId,
    });
    expect(earlier.status).toBe("approved");
  });

  test("11b. the administrator asks for more information, the partner corrects the request, the administrator rejects it", async () => {
    const status = () =>
      partner.callOk("registrationrequestservice.get_registration_request_status", { request_id: secondRequestId });
    const blank = await admin.call("adminregistrationservice.request_additional_info", {
      request_id: secondRequestId,
      admin_email: admin.email,
      message: "  ",
    });
    expect(blank).toMatchObject({ error: { data: { variant: "InvalidInput" } } });
    const asked = await admin.callOk("adminregistrationservice.request_additional_info", {
      request_id: secondRequestId,
      admin_email: admin.email,
      message: "The client's full legal name, please.",
    });
    expect(asked.status).toBe("needs_info");
    expect(await status()).toMatchObject({
      status: "needs_info",
      info_request_message: "The client's full legal name, please.",
    });
    const updated = await partner.callOk("registrationrequestservice.update_registration_request", {
      request_id: secondRequestId,
      client_name: "Juma Ali Hassan",
    });
    expect(updated).toMatchObject({ status: "pending", client_name: "Juma Ali Hassan" });
    expect((await status()).info_request_message).toBe("The client's full legal name, please.");
    const rejected = await admin.callOk("adminregistrationservice.reject_registration", {
      request_id: secondRequestId,
      admin_email: admin.email,
      reason: "The identity document does not match the name.",
    });
    expect(rejected.status).toBe("rejected");
    expect(await status()).toMatchObject({
      status: "rejected",
      rejection_reason: "The identity document does not match the name.",
      created_entity_id: null,
    });
    // A rejected request is closed: the partner cannot change it, the administrator cannot approve it.
    const late = await partner.call("registrationrequestservice.update_registration_request", {
      request_id: secondRequestId,
      client_name: "Juma Hassan",
    });
    expect(late).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState" } } });
    const reopen = await admin.call("adminregistrationservice.start_review", {
      request_id: secondRequestId,
      admin_email: admin.email,
    });
    expect(reopen).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState" } } });
  });

  test("12. the audit trail: the partner reads its own rows, the administrator reads them too, nobody else", async () => {
    const keyRows = await auditOf(partner, partner.walletUserId, "partnerservice.rotate_signing_key");
    expect(keyRows.map((r) => [r.action, r.target_type, r.target_ref, r.allowed])).toEqual([
      ["other", "other", partner.partnerId, true],
    ]);
    expect(JSON.parse(keyRows[0]?.context ?? "{}")).toMatchObject({ version: 2, retired_version: 1 });
    const submits = await auditOf(
      admin,
      partner.walletUserId,
      "registrationrequestservice.submit_registration_request",
    );
    expect(submits.map((r) => r.allowed)).toEqual([false, true, false, true]);
    const stranger = await t.register("stranger@example.org");
    const r = await stranger.call("userauditlogservice.list_for_subject", {
      subject_id: partner.walletUserId,
      limit: 10,
    });
    expect(r).toMatchObject({ error: { code: -32002 } });
  });
});
