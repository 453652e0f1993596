import { createHash } from "node:crypto";
import { beforeEach, describe, expect, test } from "vitest";
import { artifactKey, sealArtifact } from "../../src/domain/kyc-artifacts.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, insertApiKey, sql } from "../support/helpers.ts";
import { auditRows, insertRequest, partnerWithKey } from "./support.ts";

let t: TestApp;
let admin: Client;
let acme: Awaited<ReturnType<typeof partnerWithKey>>;
let requestId: string;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  acme = await partnerWithKey(t, admin, "Acme");
  requestId = await insertRequest(t, acme.partnerId);
});

const DOCUMENT = JSON.stringify({ passport: "P1234567", name: "Client Person" });
const NONCE = Buffer.from("00112233445566778899aabb", "hex");

/** What the partner's client does: fetch its artifact key, then seal the document with it. */
async function sealedByAcme(plaintext = DOCUMENT) {
  const key = (await acme.rpc("kycservice.get_artifact_key")).result;
  return sealArtifact(Buffer.from(key.artifact_key, "hex"), plaintext, NONCE);
}

async function submit(changes: Record<string, unknown> = {}) {
  return acme.rpc("kycservice.submit_artifact", {
    request_id: requestId,
    key_id: acme.keyId,
    partner_signature: "partner-signature: anything, never verified",
    encrypted_payload: await sealedByAcme(),
    ...changes,
  });
}

const sha256 = (hex: string) => createHash("sha256").update(Buffer.from(hex, "hex")).digest("hex");

describe("get_artifact_key", () => {
  test("a reseller key gets the artifact key of its own key id; the server derives it from the deployment key", async () => {
    const r = await acme.rpc("kycservice.get_artifact_key");
    expect(r.result).toEqual({
      partner_id: acme.partnerId,
      key_id: acme.keyId,
      encryption_scheme: "aes-256-gcm-v1",
      artifact_key: artifactKey(t.config.encryptionKey, acme.partnerId, acme.keyId).toString("hex"),
    });
    expect(r.result.artifact_key).toMatch(/^[0-9a-f]{64}$/);
    const globex = await partnerWithKey(t, admin, "Globex");
    expect((await globex.rpc("kycservice.get_artifact_key")).result.artifact_key).not.toBe(r.result.artifact_key);
  });

  test("a personal key or a session is refused", async () => {
    const ada = await t.register("ada@example.org");
    const r = await ada.call("kycservice.get_artifact_key");
    expect(errorOf(r)).toMatchObject({ code: -32002, data: { type: "KycError", variant: "Forbidden" } });
  });
});

describe("submit_artifact", () => {
  test("writes the attestation and its payload verbatim, hashes the encrypted bytes, audits once", async () => {
    const payload = await sealedByAcme();
    const r = await submit({ encrypted_payload: payload });
    const [nonceHex = "", sealedHex = ""] = payload.split(":");
    const hash = sha256(nonceHex + sealedHex);
    expect(r.result).toEqual({
      sid: expect.any(String),
      attestation_id: r.result.sid,
      request_id: requestId,
      partner_id: acme.partnerId,
      key_id: acme.keyId,
      payload_hash: hash,
      encryption_scheme: "aes-256-gcm-v1",
      created_at: t.clock.now().toISOString(),
    });
    const attestation = (await sql(t, `select * from "kyc_artifact_attestation"`))[0] ?? {};
    expect(attestation).toMatchObject({
      sid: r.result.sid,
      partner_signature: "partner-signature: anything, never verified",
      payload_hash: hash,
    });
    const stored = (await sql(t, `select * from "kyc_artifact_payload"`))[0] ?? {};
    expect(stored).toMatchObject({
      attestation_sid: r.result.sid,
      encrypted_payload: payload,
      key_id: acme.keyId,
      erased_at: null,
    });
    const rows = await auditRows(t, "kyc_artifact_submit");
    expect(rows.map((a) => [a.subject_id, a.target_ref, a.target_type, a.allowed])).toEqual([
      [acme.walletUserId, r.result.sid, "kyc_artifact", true],
    ]);
    // A second submission is a second attestation with its own audit row.
    const second = await submit();
    expect(second.result.sid).not.toBe(r.result.sid);
    expect(await count(t, "user_audit_log", "action = 'kyc_artifact_submit' and allowed")).toBe(2);
  });

  test("another partner's or an unknown request is NotFound, audited refused, nothing written", async () => {
    const globex = await partnerWithKey(t, admin, "Globex");
    const theirs = await insertRequest(t, globex.partnerId);
    const foreign = await submit({ request_id: theirs });
    const unknown = await submit({ request_id: "no-such-request" });
    expect(foreign.error).toMatchObject({ code: -32003, data: { type: "KycError", variant: "NotFound" } });
    expect(foreign.error).toEqual(unknown.error);
    expect(await count(t, "kyc_artifact_attestation")).toBe(0);
    expect((await auditRows(t, "kyc_artifact_submit")).map((a) => a.allowed)).toEqual([false, false]);
  });

  test.each(["approved", "rejected"])("a %s request takes no more evidence (InvalidState)", async (status) => {
    requestId = await insertRequest(t, acme.partnerId, status);
    const r = await submit();
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "InvalidState", status } });
    expect(await count(t, "kyc_artifact_attestation")).toBe(0);
  });

  test.each(["under_review", "needs_info"])("a %s request still takes evidence", async (status) => {
    requestId = await insertRequest(t, acme.partnerId, status);
    expect((await submit()).result.request_id).toBe(requestId);
  });

  test.each([
    ["an 11-byte nonce", "00112233445566778899aa:00112233445566778899aabbccddeeff00"],
    ["a ciphertext no longer than the tag", "00112233445566778899aabb:00112233445566778899aabbccddeeff"],
    ["an odd hex length", "00112233445566778899aabb:00112233445566778899aabbccddeeff001"],
  ])("a payload with %s is InvalidInput", async (_n, payload) => {
    const r = await submit({ encrypted_payload: payload });
    expect(r.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "encrypted_payload" } });
    expect(await count(t, "kyc_artifact_attestation")).toBe(0);
  });

  test("a payload that is not hex(nonce):hex(ciphertext) is refused by the schema", async () => {
    for (const payload of ["plain text", "AABB:CCDD", "aabb"]) {
      expect((await submit({ encrypted_payload: payload })).error?.code).toBe(-32602);
    }
    expect(await count(t, "kyc_artifact_attestation")).toBe(0);
  });

  test("a payload that does not open under key_id's artifact key is InvalidInput", async () => {
    const wrongKey = sealArtifact(Buffer.alloc(32, 7), DOCUMENT, NONCE);
    const r = await submit({ encrypted_payload: wrongKey });
    expect(r.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "encrypted_payload" } });
    const payload = await sealedByAcme();
    const tampered = `${payload.slice(0, -2)}${payload.endsWith("00") ? "01" : "00"}`;
    expect((await submit({ encrypted_payload: tampered })).error).toMatchObject({ data: { variant: "InvalidInput" } });
    expect(await count(t, "kyc_artifact_attestation")).toBe(0);
  });

  test("a key_id that is not one of the partner's keys is InvalidInput", async () => {
    const globex = await partnerWithKey(t, admin, "Globex");
    const ada = await t.register("ada@example.org");
    const personal = await insertApiKey(t.app.runtime.orm, ada.userId);
    for (const keyId of [globex.keyId, personal.keyId, "no-such-key"]) {
      const r = await submit({ key_id: keyId });
      expect(r.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "key_id" } });
    }
    expect(await count(t, "kyc_artifact_attestation")).toBe(0);
  });

  test("an unknown encryption scheme is InvalidInput; the default label is stored when omitted", async () => {
    const r = await submit({ encryption_scheme: "rot13" });
    expect(r.error).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "encryption_scheme" } });
    expect((await submit({ encryption_scheme: "aes-256-gcm-v1" })).result.encryption_scheme).toBe("aes-256-gcm-v1");
  });

  test("a personal key and an administrator's session are refused", async () => {
    const ada = await t.register("ada@example.org");
    const params = {
      request_id: requestId,
      key_id: acme.keyId,
      partner_signature: "s",
      encrypted_payload: await sealedByAcme(),
    };
    expect(errorOf(await ada.call("kycservice.submit_artifact", params))).toMatchObject({ code: -32002 });
    expect(errorOf(await admin.call("kycservice.submit_artifact", params))).toMatchObject({ code: -32002 });
    expect(await count(t, "kyc_artifact_attestation")).toBe(0);
  });
});

describe("view and erase", () => {
  test("an administrator decrypts the payload for review, the hash checked; audited kyc_artifact_view", async () => {
    const a = (await submit()).result;
    const r = await admin.callOk("kycservice.view_artifact", { attestation_id: a.sid });
    expect(r).toEqual({
      attestation_id: a.sid,
      request_id: requestId,
      partner_id: acme.partnerId,
      key_id: acme.keyId,
      payload_hash: a.payload_hash,
      encryption_scheme: "aes-256-gcm-v1",
      partner_signature: "partner-signature: anything, never verified",
      created_at: a.created_at,
      erased: false,
      payload: DOCUMENT,
      payload_hash_matches: true,
      erased_at: null,
      erasure_reason: null,
    });
    expect(await auditRows(t, "kyc_artifact_view")).toEqual([
      expect.objectContaining({
        subject_id: admin.userId,
        target_ref: a.sid,
        target_type: "kyc_artifact",
        allowed: true,
      }),
    ]);
  });

  test("the artifact stays readable after the partner's key is revoked or rotated", async () => {
    const a = (await submit()).result;
    await sql(t, `update "api_key" set is_active = false where sid = ?`, [acme.keyId]);
    expect((await admin.callOk("kycservice.view_artifact", { attestation_id: a.sid })).payload).toBe(DOCUMENT);
  });

  test("an altered stored payload reads as payload null with the hash mismatch shown", async () => {
    const a = (await submit()).result;
    const stored = (await sql(t, `select encrypted_payload from "kyc_artifact_payload"`))[0]?.encrypted_payload;
    const altered = `${stored.slice(0, -2)}${stored.endsWith("00") ? "01" : "00"}`;
    await sql(t, `update "kyc_artifact_payload" set encrypted_payload = ?`, [altered]);
    const r = await admin.callOk("kycservice.view_artifact", { attestation_id: a.sid });
    expect(r).toMatchObject({ erased: false, payload: null, payload_hash_matches: false });
  });

  test("members and partners cannot view: AdminOnly, audited refused; an unknown id is NotFound", async () => {
    const a = (await submit()).result;
    const byPartner = await acme.rpc("kycservice.view_artifact", { attestation_id: a.sid });
    expect(byPartner.error).toMatchObject({ code: -32002, data: { type: "KycError", variant: "AdminOnly" } });
    const unknown = await admin.call("kycservice.view_artifact", { attestation_id: "nope" });
    expect(errorOf(unknown)).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect((await auditRows(t, "kyc_artifact_view")).map((r) => [r.target_ref, r.allowed])).toEqual([
      [a.sid, false],
      ["nope", false],
    ]);
  });

  test("erasure empties the payload and leaves a tombstone; the attestation is unchanged; reads answer the tombstone", async () => {
    const a = (await submit()).result;
    const attestationBefore = (await sql(t, `select * from "kyc_artifact_attestation"`))[0];
    t.clock.advance(60);
    const erased = await admin.callOk("kycservice.erase_artifact", {
      attestation_id: a.sid,
      reason: "privacy erasure requested",
    });
    const tombstone = {
      erased: true,
      payload: null,
      payload_hash_matches: null,
      erased_at: t.clock.now().toISOString(),
      erasure_reason: "privacy erasure requested",
    };
    expect(erased).toMatchObject({ attestation_id: a.sid, payload_hash: a.payload_hash, ...tombstone });
    expect((await sql(t, `select * from "kyc_artifact_payload"`))[0]).toMatchObject({
      encrypted_payload: "",
      erasure_reason: "privacy erasure requested",
    });
    expect((await sql(t, `select * from "kyc_artifact_attestation"`))[0]).toEqual(attestationBefore);
    t.clock.advance(60);
    expect(await admin.callOk("kycservice.view_artifact", { attestation_id: a.sid })).toMatchObject(tombstone);
    expect(
      await sql(t, `select admin_email, action, target_id from "admin_action" where action = 'erase_kyc_artifact'`),
    ).toEqual([{ admin_email: "admin@example.org", action: "erase_kyc_artifact", target_id: a.sid }]);
    expect(await auditRows(t, "other")).toEqual([
      expect.objectContaining({ target_ref: a.sid, target_type: "kyc_artifact", allowed: true }),
    ]);
  });

  test("a row marked erased is answered as a tombstone without decrypting, even if ciphertext were left", async () => {
    const a = (await submit()).result;
    // Only erased_at and the reason set: a decryption attempt would still find a readable payload.
    await sql(t, `update "kyc_artifact_payload" set erased_at = ?, erasure_reason = 'retention expiry'`, [
      t.clock.now(),
    ]);
    const r = await admin.callOk("kycservice.view_artifact", { attestation_id: a.sid });
    expect(r).toMatchObject({
      erased: true,
      payload: null,
      payload_hash_matches: null,
      erasure_reason: "retention expiry",
    });
  });

  test("erasing twice is InvalidState and the first reason stays; a blank reason is InvalidInput", async () => {
    const a = (await submit()).result;
    const blank = await admin.call("kycservice.erase_artifact", { attestation_id: a.sid, reason: "  " });
    expect(errorOf(blank)).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    expect((await sql(t, `select erased_at from "kyc_artifact_payload"`))[0]?.erased_at).toBeNull();
    await admin.callOk("kycservice.erase_artifact", { attestation_id: a.sid, reason: "refused application" });
    const again = await admin.call("kycservice.erase_artifact", { attestation_id: a.sid, reason: "second" });
    expect(errorOf(again)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect((await sql(t, `select erasure_reason from "kyc_artifact_payload"`))[0]?.erasure_reason).toBe(
      "refused application",
    );
    const unknown = await admin.call("kycservice.erase_artifact", { attestation_id: "nope", reason: "x" });
    expect(errorOf(unknown)).toMatchObject({ code: -32003 });
  });

  test("a partner cannot erase", async () => {
    const a = (await submit()).result;
    const r = await acme.rpc("kycservice.erase_artifact", { attestation_id: a.sid, reason: "mine" });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
    expect((await sql(t, `select encrypted_payload from "kyc_artifact_payload"`))[0]?.encrypted_payload).not.toBe("");
  });

  test("the database refuses any change or deletion of an attestation", async () => {
    const a = (await submit()).result;
    await expect(sql(t, `update "kyc_artifact_attestation" set partner_signature = 'x'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql(t, `delete from "kyc_artifact_attestation"`)).rejects.toThrow(/append-only/);
    expect(
      (await sql(t, `select partner_signature from "kyc_artifact_attestation" where sid = ?`, [a.sid]))[0],
    ).toEqual({
      partner_signature: "partner-signature: anything, never verified",
    });
  });
});
