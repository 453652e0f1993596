import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { createResident, insertKycSession, insertPayment, residentRow, serverCall, verifyEmail } from "./support.ts";

/**
 * The internal operations of RegistrationService: confirm_kyc and update_status. From outside every call is refused
 * (-32002: AdminOnly for members, Internal for administrators) and changes nothing; the server runs them in-process
 * (serverCall), as the KYC webhook and an administrator's approval do.
 */

let t: TestApp;
let ada: Client;

beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
});

/** Ada's pending resident, paid, with an open KYC session. */
async function pendingVerification() {
  await verifyEmail(t, ada.userId);
  const r = await createResident(ada);
  await insertPayment(t, ada.userId, r.resident_id);
  const session = await insertKycSession(t, ada.userId, r.resident_id, { status: "in_progress", verified_at: null });
  return { residentId: r.resident_id, session };
}

function confirmation(residentId: string, session: string, data: Record<string, unknown> = {}) {
  return {
    user_id: ada.userId,
    resident_id: residentId,
    data: {
      session_id: session,
      kyc_provider_id: "idv-123",
      identity_verified: true,
      document_verified: true,
      liveness_verified: true,
      verification_level: "full",
      verified_at: "2026-11-23T09:59:00.000Z",
      ...data,
    },
  };
}

const sessionStatus = async (sid: string) =>
  (await sql(t, `select status from "kyc_session" where sid = ?`, [sid]))[0]?.status;

describe("confirm_kyc from outside", () => {
  test("a member is refused (AdminOnly), an administrator too (Internal); audited allowed false; nothing changes", async () => {
    const { residentId, session } = await pendingVerification();
    const params = confirmation(residentId, session);
    const member = await ada.call("registrationservice.confirm_kyc", params);
    expect(errorOf(member)).toMatchObject({ code: -32002, data: { type: "KycError", variant: "AdminOnly" } });
    const admin = await t.admin();
    const asAdmin = await admin.call("registrationservice.confirm_kyc", params);
    expect(errorOf(asAdmin)).toMatchObject({ code: -32002, data: { type: "KycError", variant: "Internal" } });
    const audit = await sql(
      t,
      `select subject_id, action, target_type, allowed from "user_audit_log" where action = 'verify_kyc' order by sid`,
    );
    expect(audit).toEqual([
      { subject_id: ada.userId, action: "verify_kyc", target_type: "kyc_session", allowed: false },
      { subject_id: admin.userId, action: "verify_kyc", target_type: "kyc_session", allowed: false },
    ]);
    expect(await sessionStatus(session)).toBe("in_progress");
    expect((await residentRow(t, residentId))?.kyc_provider_id).toBe("");
    expect(await count(t, "registration_flow")).toBe(0);
  });

  test("an anonymous call is refused as unauthenticated", async () => {
    const { residentId, session } = await pendingVerification();
    const anonymous = await t.rpc("registrationservice.confirm_kyc", confirmation(residentId, session));
    expect(anonymous.error).toMatchObject({ code: -32001 });
    expect(await sessionStatus(session)).toBe("in_progress");
  });
});

describe("confirm_kyc run by the server", () => {
  test("completes the session, records the identity and the flow, and activates when nothing else is missing", async () => {
    const { residentId, session } = await pendingVerification();
    const r = await serverCall(t, "registrationservice.confirm_kyc", confirmation(residentId, session));
    expect(r).toEqual({
      result: {
        user_id: ada.userId,
        resident_id: residentId,
        session_id: session,
        kyc_status: "completed",
        resident_status: "active",
        registration_status: "registration_complete",
        activated: true,
        verified_at: "2026-11-23T09:59:00.000Z",
      },
    });
    const row = await sql(t, `select status, verification_level, verified_at from "kyc_session" where sid = ?`, [
      session,
    ]);
    expect(row[0]).toMatchObject({ status: "completed", verification_level: "full" });
    expect(await residentRow(t, residentId)).toMatchObject({ kyc_provider_id: "idv-123", status: "active" });
    const audit = await sql(
      t,
      `select subject_id, target_ref, allowed from "user_audit_log" where action = 'verify_kyc'`,
    );
    expect(audit).toEqual([{ subject_id: ada.userId, target_ref: session, allowed: true }]);
  });

  test("without the payment the resident stays pending; the flow records kyc_complete and reads payment missing", async () => {
    await verifyEmail(t, ada.userId);
    const resident = await createResident(ada);
    const session = await insertKycSession(t, ada.userId, resident.resident_id, {
      status: "pending",
      verified_at: null,
    });
    const r = await serverCall(t, "registrationservice.confirm_kyc", confirmation(resident.resident_id, session));
    expect(r).toMatchObject({
      result: { activated: false, resident_status: "pending", registration_status: "kyc_complete" },
    });
    // Issue 30: a later step never reads done before an earlier one; the record stands beside the flow.
    expect(await ada.callOk("registrationservice.get_status", { entity_type: "resident" })).toMatchObject({
      status: "personal_info_complete",
      kyc_complete: false,
      payment_complete: false,
      recorded_status: "kyc_complete",
    });
  });

  test.each([
    ["an unknown session", { data: { session_id: "nope" } }, -32003, "NotFound"],
    ["an unknown resident", { resident_id: "FZ-2026-RA999999" }, -32003, "NotFound"],
    ["an unknown user", { user_id: "nobody" }, -32003, "NotFound"],
    ["identity not verified", { data: { identity_verified: false } }, -32006, "InvalidInput"],
    ["a verification in the future", { data: { verified_at: "2026-11-23T10:00:01.000Z" } }, -32006, "InvalidInput"],
    ["a blank provider reference", { data: { kyc_provider_id: "  " } }, -32006, "InvalidInput"],
  ])("%s is refused and nothing changes", async (_what, change, code, variant) => {
    const { residentId, session } = await pendingVerification();
    const base = confirmation(residentId, session);
    const changeData = (change as { data?: Record<string, unknown> }).data ?? {};
    const params = { ...base, ...change, data: { ...base.data, ...changeData } };
    const r = await serverCall(t, "registrationservice.confirm_kyc", params);
    expect(r).toMatchObject({ error: { code, data: { type: "KycError", variant } } });
    expect(await sessionStatus(session)).toBe("in_progress");
    expect(await count(t, "registration_flow")).toBe(0);
  });

  test("another user's resident, a session of another resident, a completed session: InvalidState", async () => {
    const { residentId, session } = await pendingVerification();
    const bob = await t.register("bob@example.org");
    const bobs = await createResident(bob, { email: "bob@example.org" });
    const bobSession = await insertKycSession(t, bob.userId, bobs.resident_id, {
      status: "pending",
      verified_at: null,
    });
    const notHis = await serverCall(t, "registrationservice.confirm_kyc", {
      ...confirmation(bobs.resident_id, bobSession),
    });
    expect(notHis).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState" } } });
    const otherSession = await serverCall(t, "registrationservice.confirm_kyc", confirmation(residentId, bobSession));
    expect(otherSession).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState" } } });
    await serverCall(t, "registrationservice.confirm_kyc", confirmation(residentId, session));
    const twice = await serverCall(t, "registrationservice.confirm_kyc", confirmation(residentId, session));
    expect(twice).toMatchObject({ error: { code: -32005, data: { variant: "InvalidState" } } });
    expect(await sessionStatus(bobSession)).toBe("pending");
  });
});

describe("update_status", () => {
  test("refused from outside, administrators included; nothing recorded", async () => {
    const admin = await t.admin();
    const params = { user_id: ada.userId, entity_type: "resident" as const, status: "kyc_complete" as const };
    expect(errorOf(await ada.call("registrationservice.update_status", params))).toMatchObject({
      code: -32002,
      data: { type: "RegistrationError", variant: "AdminOnly" },
    });
    expect(errorOf(await admin.call("registrationservice.update_status", params))).toMatchObject({
      code: -32002,
      data: { variant: "Internal" },
    });
    expect(await count(t, "registration_flow")).toBe(0);
  });

  test("the server's record is read back beside the computed flow, never mixed in; an unknown user is NotFound", async () => {
    const recorded = await serverCall(t, "registrationservice.update_status", {
      user_id: ada.userId,
      entity_type: "resident",
      status: "payment_pending",
    });
    // Issue 30: the status and the steps come from the records (nothing done yet), the record stands beside them.
    expect(recorded).toMatchObject({
      result: {
        status: "identity_pending",
        identity_complete: false,
        recorded_status: "payment_pending",
        updated_at: "2026-11-23T10:00:00.000Z",
      },
    });
    expect(await ada.callOk("registrationservice.get_status", { entity_type: "resident" })).toMatchObject({
      status: "identity_pending",
      recorded_status: "payment_pending",
    });
    // The company flow is its own row.
    expect(await ada.callOk("registrationservice.get_status", { entity_type: "company" })).toMatchObject({
      status: "identity_pending",
      recorded_status: null,
    });
    const unknown = await serverCall(t, "registrationservice.update_status", {
      user_id: "nobody",
      entity_type: "resident",
      status: "kyc_complete",
    });
    expect(unknown).toMatchObject({ error: { code: -32003, data: { variant: "NotFound" } } });
  });
});
