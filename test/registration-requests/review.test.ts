import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";
import {
  adminWithKey,
  approvalSignature,
  type KeyPair,
  type Links,
  links,
  newPartner,
  oldResidentId,
  type Partner,
  requiredContract,
  signedSubmit,
} from "./support.ts";

let t: TestApp;
let admin: Client;
let adminKeys: KeyPair;
let acme: Partner;
let linked: Links;
let contractId: string;
let requestId: string;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  adminKeys = await adminWithKey(t, admin);
  acme = await newPartner(t, admin);
  contractId = await requiredContract(t);
  linked = await links(t, acme.walletUserId, [contractId]);
  requestId = (
    await acme.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(acme, { client_email: "ada@example.org", ...linked }),
    )
  ).request_id;
  t.clock.advance(60);
});

const status = async () =>
  (await sql(t, `select status from "registration_request" where sid = ?`, [requestId]))[0]?.status;
const adminActions = () =>
  sql(t, `select admin_email, action, target_type, target_id from "admin_action" order by sid`);
const approve = async (overrides: Record<string, unknown> = {}) =>
  admin.rpc("adminregistrationservice.approve_registration", {
    request_id: requestId,
    admin_email: admin.email,
    admin_signature: await approvalSignature(t, adminKeys, requestId, admin.email),
    ...overrides,
  });

describe("administrator review", () => {
  test("list pages every partner's requests newest first, filtered by status", async () => {
    const other = await newPartner(t, admin, { name: "Other" });
    t.clock.advance(1);
    const second = await other.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(other, { client_email: "bob@example.org" }),
    );
    await sql(t, `update "registration_request" set status = 'needs_info' where sid = ?`, [second.request_id]);
    const all = await admin.callOk("adminregistrationservice.list_registration_requests", { page_size: 1 });
    expect(all).toMatchObject({ total: 2, page: 1, page_size: 1, items: [{ request_id: second.request_id }] });
    const page2 = await admin.callOk("adminregistrationservice.list_registration_requests", { page: 2, page_size: 1 });
    expect(page2.items.map((i) => i.request_id)).toEqual([requestId]);
    const filtered = await admin.callOk("adminregistrationservice.list_registration_requests", { status: "pending" });
    expect(filtered).toMatchObject({ total: 1, page_size: 20, items: [{ request_id: requestId }] });
    const tooBig = await admin.rpc("adminregistrationservice.list_registration_requests", { page_size: 101 });
    expect(tooBig.error?.code).toBe(-32602);
  });

  test("every administrator operation is AdminOnly for a user, a partner key and an administrator's key", async () => {
    const ada = await t.register("ada@example.org");
    const { generateKey } = await import("../support/helpers.ts");
    const adminKey = await generateKey(admin, { mcp_scope: null });
    const callers = [
      (m: string, p: unknown) => ada.rpc(m, p),
      (m: string, p: unknown) => acme.rpc(m, p),
      (m: string, p: unknown) => t.rpc(m, p, { "x-api-key": adminKey.key }),
    ];
    for (const call of callers) {
      for (const [method, params] of [
        ["adminregistrationservice.get_registration_details", { request_id: requestId }],
        ["adminregistrationservice.verify_registration_prerequisites", { request_id: requestId }],
        [
          "adminregistrationservice.approve_registration",
          { request_id: requestId, admin_email: "x@y.z", admin_signature: "00" },
        ],
        ["adminregistrationservice.reject_registration", { request_id: requestId, admin_email: "x@y.z", reason: "no" }],
        [
          "adminregistrationservice.request_additional_info",
          { request_id: requestId, admin_email: "x@y.z", message: "m" },
        ],
      ] as const) {
        const r = await call(method, params);
        expect(r.error).toMatchObject({ code: -32002, data: { type: "AdminRegistrationError", variant: "AdminOnly" } });
      }
    }
    expect(await status()).toBe("pending");
    expect(await count(t, "admin_action", "action <> 'create_partner'")).toBe(0);
    // The refused approvals are audited allowed: false.
    expect(await count(t, "user_audit_log", "action = 'partner_registration_request_approve' and not allowed")).toBe(3);
  });

  test("details carry the linked KYC session, payment, contract signatures and KYC artifacts", async () => {
    const attestation = await insertRow(t.app.runtime.orm, "KycArtifactAttestation", {
      request_id: requestId,
      partner_id: acme.partnerId,
      partner_signature: "sig",
      payload_hash: "ab".repeat(32),
      key_id: "key-1",
    });
    await insertRow(t.app.runtime.orm, "KycArtifactPayload", {
      attestation_sid: attestation["sid"],
      encrypted_payload: "",
      key_id: "key-1",
      erased_at: new Date("2026-11-23T09:50:00.000Z"),
      erasure_reason: "privacy erasure",
    });
    const d = await admin.callOk("adminregistrationservice.get_registration_details", { request_id: requestId });
    expect(d).toMatchObject({
      request_id: requestId,
      status: "pending",
      kyc: {
        session_id: linked.kyc_session_id,
        status: "completed",
        identity_verified: true,
        verification_level: "full",
        verified_at: "2026-11-23T09:30:00.000Z",
      },
      payment: { payment_id: linked.payment_id, status: "confirmed", amount: 120, currency: "USD" },
      contracts: [
        {
          signature_id: linked.signed_contract_ids[0],
          contract_id: contractId,
          contract_version: "2026.1",
          signed_at: "2026-11-23T09:45:00.000Z",
          found: true,
        },
      ],
      kyc_artifacts: [
        {
          attestation_id: attestation["sid"],
          key_id: "key-1",
          encryption_scheme: "aes-256-gcm-v1",
          erased: true,
          erased_at: "2026-11-23T09:50:00.000Z",
        },
      ],
    });
    const missing = await admin.rpc("adminregistrationservice.get_registration_details", { request_id: "nope" });
    expect(missing.error).toMatchObject({
      code: -32003,
      data: { type: "AdminRegistrationError", variant: "NotFound" },
    });
  });
});

describe("prerequisite check", () => {
  const check = () =>
    admin.callOk("adminregistrationservice.verify_registration_prerequisites", { request_id: requestId });
  const failing = async () => (await check()).checks.filter((c) => !c.passed).map((c) => c.name);

  test("a complete request passes every check; the check writes nothing (issue 30)", async () => {
    const actions = (await adminActions()).length;
    const r = await check();
    expect(r).toMatchObject({ request_id: requestId, all_passed: true, status: "pending" });
    expect(r.checks.map((c) => c.name)).toEqual([
      "kyc_complete",
      "payment_confirmed",
      "contracts_signed",
      "client_email_available",
      "partner_active",
      "reseller_signature_present",
    ]);
    expect(await status()).toBe("pending");
    expect((await check()).status).toBe("pending");
    expect(await adminActions()).toHaveLength(actions);
    expect(await count(t, "admin_action", "action = 'start_registration_review'")).toBe(0);
  });

  test("start_review moves a pending request to under_review (an AdminAction); a second start is InvalidState", async () => {
    const start = () =>
      admin.rpc("adminregistrationservice.start_review", { request_id: requestId, admin_email: admin.email });
    const forged = await admin.rpc("adminregistrationservice.start_review", {
      request_id: requestId,
      admin_email: "someone-else@example.org",
    });
    expect(forged.error).toMatchObject({ code: -32002, data: { variant: "Forbidden" } });
    const unknown = await admin.rpc("adminregistrationservice.start_review", {
      request_id: "nope",
      admin_email: admin.email,
    });
    expect(unknown.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect(await status()).toBe("pending");
    const r = await start();
    expect(r.result).toMatchObject({ request_id: requestId, status: "under_review", reviewed_by: admin.email });
    expect(await status()).toBe("under_review");
    expect((await adminActions()).at(-1)).toMatchObject({
      action: "start_registration_review",
      target_type: "registration_request",
      target_id: requestId,
    });
    const again = await start();
    expect(again.error).toMatchObject({ code: -32005, data: { variant: "InvalidState", status: "under_review" } });
    expect(await count(t, "admin_action", "action = 'start_registration_review'")).toBe(1);
    expect((await check()).status).toBe("under_review");
  });

  test("each unmet prerequisite fails its own check", async () => {
    await sql(t, `update "kyc_session" set status = 'needs_review' where sid = ?`, [linked.kyc_session_id]);
    await sql(t, `update "payment" set status = 'pending' where sid = ?`, [linked.payment_id]);
    await requiredContract(t); // a new required contract the client has not signed
    await insertRow(
      t.app.runtime.orm,
      "DigitalResident",
      residentValues("someone", { resident_id: oldResidentId(), email: "ADA@example.org" }),
    );
    await sql(t, `update "partner_configuration" set is_active = false where sid = ?`, [acme.partnerId]);
    expect(await failing()).toEqual([
      "kyc_complete",
      "payment_confirmed",
      "contracts_signed",
      "client_email_available",
      "partner_active",
    ]);
  });

  test("missing links and a missing signature fail", async () => {
    await sql(
      t,
      `update "registration_request" set kyc_session_id = null, payment_id = null, signed_contract_ids = '{}', reseller_signature = '' where sid = ?`,
      [requestId],
    );
    const r = await check();
    expect(r.checks.filter((c) => !c.passed)).toEqual([
      { name: "kyc_complete", passed: false, detail: "no KYC session linked and no KYC artifact attached" },
      { name: "payment_confirmed", passed: false, detail: "no payment linked" },
      { name: "contracts_signed", passed: false, detail: `required contracts not signed: ${contractId}` },
      { name: "reseller_signature_present", passed: false, detail: "the request carries no reseller signature" },
    ]);
  });

  test("a company request also checks company creation, and a company with the email", async () => {
    const companies = await newPartner(t, admin, { name: "Companies", allow_company_creation: true });
    const r = await companies.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(companies, { client_email: "co@example.org", request_type: "company" }),
    );
    await sql(t, `update "partner_configuration" set allow_company_creation = false where sid = ?`, [
      companies.partnerId,
    ]);
    await insertRow(t.app.runtime.orm, "ZoneCompany", {
      company_id: "FZ-2025-Y000001",
      user_id: "u",
      email: "co@example.org",
    });
    const checked = await admin.callOk("adminregistrationservice.verify_registration_prerequisites", {
      request_id: r.request_id,
    });
    expect(checked.checks.filter((c) => !c.passed).map((c) => c.name)).toEqual([
      "kyc_complete",
      "payment_confirmed",
      "client_email_available",
      "company_creation_allowed",
    ]);
  });
});

describe("approve_registration", () => {
  test("creates the partner-onboarded resident, links it, records who approved, audits and writes an AdminAction", async () => {
    const signature = await approvalSignature(t, adminKeys, requestId, admin.email);
    const r = await admin.callOk("adminregistrationservice.approve_registration", {
      request_id: requestId,
      admin_email: admin.email.toUpperCase(),
      admin_signature: signature,
    });
    expect(r).toEqual({
      request_id: requestId,
      status: "approved",
      request_type: "resident",
      approved_by: admin.email,
      approved_at: t.clock.now().toISOString(),
      created_entity_id: "FZ-2026-RA000001",
    });
    const resident = (await sql(t, `select * from "digital_resident" where resident_id = ?`, [r.created_entity_id]))[0];
    expect(resident).toMatchObject({
      user_id: null,
      partner_id: acme.partnerId,
      email: "ada@example.org",
      first_name: "Ada",
      last_name: "Lovelace",
      status: "pending",
      resident_type: "partner_created",
      source: "partner",
      external_id: expect.stringMatching(/^FZX-/),
    });
    const row = (await sql(t, `select * from "registration_request" where sid = ?`, [requestId]))[0];
    expect(row).toMatchObject({
      status: "approved",
      admin_signature: signature,
      reviewed_by: admin.email,
      created_entity_id: r.created_entity_id,
    });
    const audit = await sql(t, `select * from "user_audit_log" where action = 'partner_registration_request_approve'`);
    expect(audit).toEqual([
      expect.objectContaining({
        subject_id: admin.userId,
        target_ref: requestId,
        target_type: "registration_request",
        allowed: true,
      }),
    ]);
    expect((await adminActions()).at(-1)).toMatchObject({
      action: "approve_registration_request",
      target_id: requestId,
    });
    const status = await acme.callOk("registrationrequestservice.get_registration_request_status", {
      request_id: requestId,
    });
    expect(status).toMatchObject({ status: "approved", created_entity_id: r.created_entity_id });
    // The partner reads its onboarded resident through its reseller key; another partner cannot.
    const mine = await acme.callOk("residentservice.get", { resident_id: r.created_entity_id ?? "" });
    expect(mine).toMatchObject({ resident_id: r.created_entity_id, partner_id: acme.partnerId, user_id: null });
    const other = await newPartner(t, admin, { name: "Other" });
    const theirs = await other.rpc("residentservice.get", { resident_id: r.created_entity_id });
    expect(theirs.error).toMatchObject({ code: -32003 });
  });

  test("a company request is approved with the partner's company (test/company-service covers the company)", async () => {
    const companies = await newPartner(t, admin, { name: "Companies", allow_company_creation: true });
    const theirs = await links(t, companies.walletUserId, []);
    await requiredContract(t, ["company"]).then(async (c) => {
      const sig = await links(t, companies.walletUserId, [c]);
      theirs.signed_contract_ids = sig.signed_contract_ids;
    });
    const r = await companies.callOk(
      "registrationrequestservice.submit_registration_request",
      signedSubmit(companies, { client_email: "co@example.org", request_type: "company", ...theirs }),
    );
    const approved = await admin.callOk("adminregistrationservice.approve_registration", {
      request_id: r.request_id,
      admin_email: admin.email,
      admin_signature: await approvalSignature(t, adminKeys, r.request_id, admin.email),
    });
    expect(approved).toMatchObject({
      status: "approved",
      request_type: "company",
      created_entity_id: expect.stringMatching(/^FZ-\d{4}-Y\d{6}$/),
    });
    expect(await count(t, "digital_resident", "partner_id = ?", [companies.partnerId])).toBe(0);
  });

  test("a bad, malformed or other-content signature is InvalidSignature, audited, nothing written", async () => {
    const other = await approvalSignature(t, adminKeys, requestId, "someone@example.org");
    const cases = [other, other.toUpperCase(), other.slice(0, 100), "zz".repeat(64)];
    for (const admin_signature of cases) {
      const r = await approve({ admin_signature });
      expect(r.error).toMatchObject({
        code: -32006,
        data: { type: "AdminRegistrationError", variant: "InvalidSignature" },
      });
    }
    expect(await status()).toBe("pending");
    expect(await count(t, "digital_resident", "partner_id is not null")).toBe(0);
    expect(await count(t, "user_audit_log", "action = 'partner_registration_request_approve' and not allowed")).toBe(4);
    expect(await count(t, "admin_action", "action = 'approve_registration_request'")).toBe(0);
  });

  test("an administrator without a resident key cannot approve", async () => {
    await sql(t, `update "digital_resident" set public_key = null where user_id = ?`, [admin.userId]);
    const r = await approve();
    expect(r.error).toMatchObject({ code: -32006, data: { variant: "InvalidSignature", reason: "no_signing_key" } });
    expect(await status()).toBe("pending");
  });

  test("an admin_email that is not the caller's is Forbidden; an unknown request NotFound", async () => {
    const forbidden = await approve({ admin_email: "other-admin@example.org" });
    expect(forbidden.error).toMatchObject({ code: -32002, data: { variant: "Forbidden" } });
    const missing = await approve({ request_id: "nope" });
    expect(missing.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect(await status()).toBe("pending");
  });

  test("failing prerequisites are InvalidState naming them; nothing is created", async () => {
    await sql(t, `update "payment" set status = 'failed' where sid = ?`, [linked.payment_id]);
    const r = await approve();
    expect(r.error).toMatchObject({
      code: -32005,
      data: { variant: "InvalidState", failed: ["payment_confirmed"] },
    });
    expect(await status()).toBe("pending");
    expect(await count(t, "digital_resident", "partner_id is not null")).toBe(0);
  });
});

describe("reject and request more information", () => {
  test("reject stores the reason, shows it to the partner, audits (other) and writes an AdminAction", async () => {
    const r = await admin.callOk("adminregistrationservice.reject_registration", {
      request_id: requestId,
      admin_email: admin.email,
      reason: "  documents expired ",
    });
    expect(r).toEqual({
      request_id: requestId,
      status: "rejected",
      reason: "documents expired",
      rejected_by: admin.email,
      rejected_at: t.clock.now().toISOString(),
    });
    const seen = await acme.callOk("registrationrequestservice.get_registration_request_status", {
      request_id: requestId,
    });
    expect(seen).toMatchObject({ status: "rejected", rejection_reason: "documents expired" });
    expect(
      await count(t, "user_audit_log", "action = 'other' and target_type = 'registration_request' and allowed"),
    ).toBe(1);
    expect((await adminActions()).at(-1)).toMatchObject({ action: "reject_registration_request" });
  });

  test("a blank reason or message is InvalidInput, a foreign admin_email Forbidden; nothing changes", async () => {
    const blank = await admin.rpc("adminregistrationservice.reject_registration", {
      request_id: requestId,
      admin_email: admin.email,
      reason: "  ",
    });
    expect(blank.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const message = await admin.rpc("adminregistrationservice.request_additional_info", {
      request_id: requestId,
      admin_email: admin.email,
      message: "",
    });
    expect(message.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const forbidden = await admin.rpc("adminregistrationservice.request_additional_info", {
      request_id: requestId,
      admin_email: "x@example.org",
      message: "more",
    });
    expect(forbidden.error).toMatchObject({ code: -32002, data: { variant: "Forbidden" } });
    expect(await status()).toBe("pending");
    expect(
      await count(t, "user_audit_log", "action = 'other' and target_type = 'registration_request' and not allowed"),
    ).toBe(1);
  });

  test("request_additional_info moves to needs_info with the message the partner reads; a later one replaces it", async () => {
    const r = await admin.callOk("adminregistrationservice.request_additional_info", {
      request_id: requestId,
      admin_email: admin.email,
      message: "attach a proof of address",
    });
    expect(r).toMatchObject({ status: "needs_info", message: "attach a proof of address", requested_by: admin.email });
    await admin.callOk("adminregistrationservice.request_additional_info", {
      request_id: requestId,
      admin_email: admin.email,
      message: "and a phone number",
    });
    const seen = await acme.callOk("registrationrequestservice.get_registration_request_status", {
      request_id: requestId,
    });
    expect(seen).toMatchObject({ status: "needs_info", info_request_message: "and a phone number" });
    expect((await adminActions()).at(-1)).toMatchObject({ action: "request_registration_info" });
  });
});

describe("audit rows of a request", () => {
  test("list_for_target shows a request's rows to its partner and to administrators, NotFound to others", async () => {
    const mine = await acme.callOk("userauditlogservice.list_for_target", { target_ref: requestId, limit: 0 });
    expect(mine.items.map((i) => i.action)).toEqual(["partner_registration_request_submit"]);
    const adminView = await admin.callOk("userauditlogservice.list_for_target", { target_ref: requestId, limit: 0 });
    expect(adminView.items).toHaveLength(1);
    const other = await newPartner(t, admin, { name: "Other" });
    const theirs = await other.rpc("userauditlogservice.list_for_target", { target_ref: requestId, limit: 0 });
    expect(theirs.error).toMatchObject({ code: -32003 });
    const ada = await t.register("ada@example.org");
    const stranger = await ada.rpc("userauditlogservice.list_for_target", { target_ref: requestId, limit: 0 });
    expect(stranger.error).toMatchObject({ code: -32003 });
  });
});
