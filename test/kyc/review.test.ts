import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, insertApiKey, sql } from "../support/helpers.ts";
import {
  auditRows,
  deliver,
  insertResident,
  KEY_1,
  residentRow,
  sandboxVerdict,
  sessionRow,
  startKyc,
} from "./support.ts";

let t: TestApp;
let ada: Client;
let admin: Client;
beforeEach(async () => {
  t = await startTestApp({
    kyc: { ...testKyc(), personalData: { enabled: true, fields: ["dob", "nationality", "document_number"] } },
  });
  ada = await t.register("ada@example.org");
  admin = await t.admin();
});

function testKyc() {
  return { sessionTtlS: 24 * 3600, manualReview: true, personalData: { enabled: false, fields: [] } };
}

/** A session held for review (sandbox suspected verdict), with its captured personal data. */
async function held() {
  const residentId = await insertResident(t, ada.userId, { last_name: "sandbox-suspected" });
  const s = await startKyc(t, ada, residentId);
  const v = sandboxVerdict(t, s.scanRef);
  await deliver(t, v);
  return { residentId, ...s, identity: v.kyc_provider_id };
}

const adminActions = () => sql(t, `select admin_email, action, target_type, target_id, details from "admin_action"`);

describe("approve", () => {
  test("an administrator completes a held session: flags kept, resident identity recorded, AdminAction and audit row", async () => {
    const s = await held();
    t.clock.advance(600);
    const r = await admin.callOk("kycservice.approve", { session_id: s.sessionId, note: "document checked by hand" });
    expect(r).toMatchObject({
      session_id: s.sessionId,
      status: "completed",
      identity_verified: true,
      provider_verdict: "suspected",
      verified_at: t.clock.now().toISOString(),
    });
    expect((await sessionRow(t, s.sessionId))["reviewed_by"]).toBe("admin@example.org");
    expect(await residentRow(t, s.residentId)).toMatchObject({ kyc_provider_id: s.identity, status: "pending" });
    expect(await adminActions()).toEqual([
      {
        admin_email: "admin@example.org",
        action: "approve_kyc",
        target_type: "kyc_session",
        target_id: s.sessionId,
        details: JSON.stringify({ resident_id: s.residentId, note: "document checked by hand" }),
      },
    ]);
    expect(await auditRows(t, "verify_kyc")).toEqual([
      expect.objectContaining({
        subject_id: admin.userId,
        target_ref: s.sessionId,
        target_type: "kyc_session",
        allowed: true,
      }),
    ]);
    // The personal data captured for review stays with the completed session.
    expect(await count(t, "kyc_personal_data")).toBe(1);
  });

  test("approving a session not held for review is InvalidState, changes nothing and is audited allowed false", async () => {
    const residentId = await insertResident(t, ada.userId);
    const s = await startKyc(t, ada, residentId);
    const r = await admin.call("kycservice.approve", { session_id: s.sessionId });
    expect(errorOf(r)).toMatchObject({
      code: -32005,
      data: { type: "KycError", variant: "InvalidState", status: "pending" },
    });
    expect((await sessionRow(t, s.sessionId))["status"]).toBe("pending");
    expect((await residentRow(t, residentId))["kyc_provider_id"]).toBe("");
    expect(await adminActions()).toEqual([]);
    expect(await auditRows(t, "verify_kyc")).toEqual([
      expect.objectContaining({ target_ref: s.sessionId, allowed: false }),
    ]);
    expect(JSON.parse((await auditRows(t, "verify_kyc"))[0]?.context ?? "{}")).toMatchObject({ error: "InvalidState" });
  });

  test("approving twice: the second is InvalidState", async () => {
    const s = await held();
    await admin.callOk("kycservice.approve", { session_id: s.sessionId });
    const again = await admin.call("kycservice.approve", { session_id: s.sessionId });
    expect(errorOf(again)).toMatchObject({ code: -32005, data: { variant: "InvalidState", status: "completed" } });
    expect((await adminActions()).length).toBe(1);
  });

  test("a member, the owner included, is refused AdminOnly and audited; an administrator's API key too", async () => {
    const s = await held();
    const byOwner = await ada.call("kycservice.approve", { session_id: s.sessionId });
    expect(errorOf(byOwner)).toMatchObject({ code: -32002, data: { type: "KycError", variant: "AdminOnly" } });
    const key = await insertApiKey(t.app.runtime.orm, admin.userId);
    const byKey = await t.rpc("kycservice.approve", { session_id: s.sessionId }, { "x-api-key": key.key });
    expect(byKey.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    expect((await sessionRow(t, s.sessionId))["status"]).toBe("needs_review");
    const rows = await auditRows(t, "verify_kyc");
    expect(rows.map((r) => [r.subject_id, r.allowed])).toEqual([
      [ada.userId, false],
      [admin.userId, false],
    ]);
  });

  test("an unknown session is NotFound", async () => {
    const r = await admin.call("kycservice.approve", { session_id: "no-such-session" });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "KycError", variant: "NotFound" } });
  });
});

describe("reject", () => {
  test("rejecting fails the session with the reason, deletes what it captured, and the resident may start again", async () => {
    const s = await held();
    expect(await count(t, "kyc_personal_data")).toBe(1);
    const r = await admin.callOk("kycservice.reject", { session_id: s.sessionId, reason: "  photo does not match  " });
    expect(r).toMatchObject({ status: "failed", review_reason: "photo does not match", verified_at: null });
    expect((await ada.callOk("kycservice.check_status", { session_id: s.sessionId })).review_reason).toBe(
      "photo does not match",
    );
    expect(await count(t, "kyc_personal_data")).toBe(0);
    expect(await residentRow(t, s.residentId)).toMatchObject({ status: "pending", kyc_provider_id: "" });
    expect(await adminActions()).toEqual([
      expect.objectContaining({
        action: "reject_kyc",
        target_id: s.sessionId,
        details: JSON.stringify({
          resident_id: s.residentId,
          reason: "photo does not match",
          personal_data_deleted: true,
        }),
      }),
    ]);
    expect(await auditRows(t, "verify_kyc")).toEqual([expect.objectContaining({ allowed: true })]);
    const again = await ada.callOk("kycservice.start_verification", { resident_id: s.residentId, public_key: KEY_1 });
    expect(again.session_id).not.toBe(s.sessionId);
  });

  test("while held, the resident cannot start another verification", async () => {
    const s = await held();
    const r = await ada.call("kycservice.start_verification", { resident_id: s.residentId, public_key: KEY_1 });
    expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
  });

  test("a blank reason is InvalidInput; an empty one -32602; both change nothing and are audited", async () => {
    const s = await held();
    const blank = await admin.call("kycservice.reject", { session_id: s.sessionId, reason: "   " });
    expect(errorOf(blank)).toMatchObject({ code: -32006, data: { type: "KycError", variant: "InvalidInput" } });
    const empty = await admin.call("kycservice.reject", { session_id: s.sessionId, reason: "" });
    expect(errorOf(empty).code).toBe(-32602);
    expect((await sessionRow(t, s.sessionId))["status"]).toBe("needs_review");
    expect(await count(t, "kyc_personal_data")).toBe(1);
    expect((await auditRows(t, "verify_kyc")).map((r) => r.allowed)).toEqual([false, false]);
  });

  test("rejecting a completed session is InvalidState and keeps it completed", async () => {
    const residentId = await insertResident(t, ada.userId);
    const s = await startKyc(t, ada, residentId);
    await deliver(t, sandboxVerdict(t, s.scanRef));
    const r = await admin.call("kycservice.reject", { session_id: s.sessionId, reason: "changed my mind" });
    expect(errorOf(r)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect((await sessionRow(t, s.sessionId))["status"]).toBe("completed");
    expect(await count(t, "kyc_personal_data")).toBe(1);
  });

  test("a member cannot reject", async () => {
    const s = await held();
    const r = await ada.call("kycservice.reject", { session_id: s.sessionId, reason: "nope" });
    expect(errorOf(r)).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    expect((await sessionRow(t, s.sessionId))["status"]).toBe("needs_review");
  });
});
