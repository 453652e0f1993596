import { beforeEach, describe, expect, test } from "vitest";
import { sealArtifact } from "../../src/domain/kyc-artifacts.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { errorOf } from "../support/helpers.ts";
import { deliver, insertRequest, insertResident, partnerWithKey, sandboxVerdict, startKyc } from "./support.ts";

// userauditlogservice.list_for_target shows a target's rows to administrators and to the target's owner: the KYC
// target types (kyc_session, kyc_personal_data, kyc_artifact) have owner lookups now.

let t: TestApp;
let ada: Client;
let bob: Client;
let admin: Client;
beforeEach(async () => {
  t = await startTestApp({
    kyc: { sessionTtlS: 24 * 3600, manualReview: true, personalData: { enabled: true, fields: ["dob"] } },
  });
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
  admin = await t.admin();
});

const listFor = (client: { call: Client["call"] }, ref: string) =>
  client.call("userauditlogservice.list_for_target", { target_ref: ref, limit: 0 });

describe("KYC audit targets", () => {
  test("kyc_session: the resident's owner sees the review rows; another user gets NotFound", async () => {
    const residentId = await insertResident(t, ada.userId, { last_name: "sandbox-suspected" });
    const s = await startKyc(t, ada, residentId);
    const empty = await listFor(ada, s.sessionId);
    expect("result" in empty && empty.result.items).toEqual([]);
    await deliver(t, sandboxVerdict(t, s.scanRef));
    await admin.callOk("kycservice.approve", { session_id: s.sessionId });
    const mine = await listFor(ada, s.sessionId);
    expect("result" in mine && mine.result.items.map((i) => [i.action, i.target_type])).toEqual([
      ["verify_kyc", "kyc_session"],
    ]);
    expect(errorOf(await listFor(bob, s.sessionId))).toMatchObject({ code: -32003 });
  });

  test("kyc_session of a partner's resident: that partner's key sees the rows, another partner's does not", async () => {
    const acme = await partnerWithKey(t, admin, "Acme");
    const globex = await partnerWithKey(t, admin, "Globex");
    const residentId = await insertResident(t, null, { partner_id: acme.partnerId, last_name: "sandbox-suspected" });
    const started = await acme.rpc("kycservice.start_verification", {
      resident_id: residentId,
      public_key: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    });
    const sessionId = started.result.session_id;
    await admin.call("kycservice.reject", { session_id: sessionId, reason: "not held yet" });
    const own = await acme.rpc("userauditlogservice.list_for_target", { target_ref: sessionId, limit: 0 });
    expect(own.result.items.map((i: { allowed: boolean }) => i.allowed)).toEqual([false]);
    const other = await globex.rpc("userauditlogservice.list_for_target", { target_ref: sessionId, limit: 0 });
    expect(other.error).toMatchObject({ code: -32003 });
  });

  test("kyc_personal_data: the owner sees who read the data, an administrator included; another user NotFound", async () => {
    const residentId = await insertResident(t, ada.userId);
    const s = await startKyc(t, ada, residentId);
    await deliver(t, sandboxVerdict(t, s.scanRef));
    await admin.callOk("kycservice.get_personal_data", { resident_id: residentId });
    const mine = await listFor(ada, residentId);
    expect("result" in mine && mine.result.items.map((i) => [i.subject_id, i.action, i.target_type])).toEqual([
      [admin.userId, "kyc_personal_data_view", "kyc_personal_data"],
    ]);
    expect(errorOf(await listFor(bob, residentId))).toMatchObject({ code: -32003 });
  });

  test("kyc_artifact: the submitting partner's key sees the rows; another partner and members get NotFound", async () => {
    const acme = await partnerWithKey(t, admin, "Acme");
    const globex = await partnerWithKey(t, admin, "Globex");
    const requestId = await insertRequest(t, acme.partnerId);
    const key = (await acme.rpc("kycservice.get_artifact_key")).result.artifact_key;
    const submitted = await acme.rpc("kycservice.submit_artifact", {
      request_id: requestId,
      key_id: acme.keyId,
      partner_signature: "sig",
      encrypted_payload: sealArtifact(Buffer.from(key, "hex"), "{}"),
    });
    const attestation = submitted.result.sid;
    await admin.callOk("kycservice.view_artifact", { attestation_id: attestation });
    const own = await acme.rpc("userauditlogservice.list_for_target", { target_ref: attestation, limit: 0 });
    expect(own.result.items.map((i: { action: string }) => i.action)).toEqual([
      "kyc_artifact_view",
      "kyc_artifact_submit",
    ]);
    const other = await globex.rpc("userauditlogservice.list_for_target", { target_ref: attestation, limit: 0 });
    expect(other.error).toMatchObject({ code: -32003 });
    expect(errorOf(await listFor(ada, attestation))).toMatchObject({ code: -32003 });
    const byAdmin = await listFor(admin, attestation);
    expect("result" in byAdmin && byAdmin.result.items).toHaveLength(2);
  });
});
