import { beforeEach, describe, expect, test } from "vitest";
import type { KycConfig } from "../../src/config.ts";
import type { KycPersonalField } from "../../src/domain/kyc.ts";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import { auditRows, deliver, insertResident, partnerWithKey, sandboxVerdict, startKyc, verdict } from "./support.ts";

let t: TestApp;
let ada: Client;
let bob: Client;

const ALL: KycPersonalField[] = ["dob", "nationality", "document_number", "document_type", "document_expiry"];

async function start(personalData: KycConfig["personalData"]) {
  t = await startTestApp({ kyc: { sessionTtlS: 24 * 3600, manualReview: true, personalData } });
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
}
beforeEach(() => start({ enabled: true, fields: ALL }));

async function verified(lastName = "Lovelace", personal?: Record<string, string | null>) {
  const residentId = await insertResident(t, ada.userId, { last_name: lastName });
  const s = await startKyc(t, ada, residentId);
  const v = personal ? verdict(t, s.scanRef, { personal_data: personal }) : sandboxVerdict(t, s.scanRef);
  await deliver(t, v);
  return { residentId, ...s };
}

describe("capture", () => {
  test("an approved verdict's fields are stored sealed (AES-256-GCM) and the owner reads them decrypted", async () => {
    const s = await verified();
    const stored = (await sql(t, `select * from "kyc_personal_data"`))[0] ?? {};
    expect(stored).toMatchObject({ resident_id: s.residentId, user_id: ada.userId, kyc_provider_id: s.scanRef });
    for (const field of ALL) expect(stored[field]).toMatch(/^enc:[0-9a-f]{24}:[0-9a-f]+$/);
    expect(JSON.stringify(stored)).not.toContain("1990-01-31");
    const r = await ada.callOk("kycservice.get_personal_data", { resident_id: s.residentId });
    expect(r).toEqual({
      resident_id: s.residentId,
      user_id: ada.userId,
      kyc_provider_id: s.scanRef,
      dob: "1990-01-31",
      nationality: "TZ",
      document_number: `P${s.scanRef.slice(-8).toUpperCase()}`,
      document_type: "passport",
      document_expiry: "2031-01-31",
      captured_at: t.clock.now().toISOString(),
    });
  });

  test("absent fields stay absent (null), not empty strings", async () => {
    const s = await verified("Lovelace", { dob: "1985-12-01", nationality: null, document_type: "" });
    const stored = (await sql(t, `select * from "kyc_personal_data"`))[0] ?? {};
    expect(stored).toMatchObject({
      nationality: null,
      document_number: null,
      document_type: null,
      document_expiry: null,
    });
    const r = await ada.callOk("kycservice.get_personal_data", { resident_id: s.residentId });
    expect(r).toMatchObject({
      dob: "1985-12-01",
      nationality: null,
      document_number: null,
      document_type: null,
      document_expiry: null,
    });
  });

  test("only the fields whose toggle is on are captured", async () => {
    await start({ enabled: true, fields: ["nationality", "document_type"] });
    const s = await verified();
    const r = await ada.callOk("kycservice.get_personal_data", { resident_id: s.residentId });
    expect(r).toMatchObject({
      dob: null,
      nationality: "TZ",
      document_number: null,
      document_type: "passport",
      document_expiry: null,
    });
  });

  test("with the feature off nothing is captured, and reading answers NotFound", async () => {
    await start({ enabled: false, fields: ALL });
    const s = await verified();
    expect(await count(t, "kyc_personal_data")).toBe(0);
    const r = await ada.call("kycservice.get_personal_data", { resident_id: s.residentId });
    expect(errorOf(r)).toMatchObject({ code: -32003, data: { type: "KycError", variant: "NotFound" } });
  });

  test("a denied verdict and a provider sending no fields capture nothing", async () => {
    const residentId = await insertResident(t, bob.userId);
    const s = await startKyc(t, bob, residentId);
    await deliver(t, verdict(t, s.scanRef, { verdict: "denied", personal_data: { dob: "1990-01-01" } }));
    expect((await bob.callOk("kycservice.check_status", { session_id: s.sessionId })).status).toBe("failed");
    await verified("Lovelace", {});
    expect(await count(t, "kyc_personal_data")).toBe(0);
  });

  test("a held (suspected) session's fields are captured for the reviewer", async () => {
    const s = await verified("sandbox-suspected");
    const admin = await t.admin();
    const r = await admin.callOk("kycservice.get_personal_data", { resident_id: s.residentId });
    expect(r.nationality).toBe("TZ");
  });
});

describe("who reads", () => {
  test("the owner and an administrator read, audited kyc_personal_data_view; anyone else NotFound, audited refused", async () => {
    const s = await verified();
    await ada.callOk("kycservice.get_personal_data", { resident_id: s.residentId });
    const admin = await t.admin();
    await admin.callOk("kycservice.get_personal_data", { resident_id: s.residentId });
    const other = await bob.call("kycservice.get_personal_data", { resident_id: s.residentId });
    const unknown = await bob.call("kycservice.get_personal_data", { resident_id: "FZ-2026-RA999999" });
    expect(errorOf(other)).toMatchObject({ code: -32003, data: { type: "KycError", variant: "NotFound" } });
    expect(errorOf(other)).toEqual(errorOf(unknown));
    const rows = await auditRows(t, "kyc_personal_data_view");
    expect(rows.map((r) => [r.subject_id, r.target_ref, r.target_type, r.allowed])).toEqual([
      [ada.userId, s.residentId, "kyc_personal_data", true],
      [admin.userId, s.residentId, "kyc_personal_data", true],
      [bob.userId, s.residentId, "kyc_personal_data", false],
      [bob.userId, "FZ-2026-RA999999", "kyc_personal_data", false],
    ]);
  });

  test("another partner's key never reads a partner resident's data", async () => {
    const admin = await t.admin();
    const acme = await partnerWithKey(t, admin, "Acme");
    const globex = await partnerWithKey(t, admin, "Globex");
    const residentId = await insertResident(t, null, { partner_id: acme.partnerId });
    const s = await acme.rpc("kycservice.start_verification", {
      resident_id: residentId,
      public_key: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
    });
    const scanRef = (
      await sql(t, `select kycprovider_scan_ref from "kyc_session" where sid = ?`, [s.result.session_id])
    )[0]?.kycprovider_scan_ref;
    await deliver(t, sandboxVerdict(t, scanRef));
    expect((await acme.rpc("kycservice.get_personal_data", { resident_id: residentId })).result.user_id).toBeNull();
    const r = await globex.rpc("kycservice.get_personal_data", { resident_id: residentId });
    expect(r.error).toMatchObject({ code: -32003 });
    const personal = await ada.call("kycservice.get_personal_data", { resident_id: residentId });
    expect(errorOf(personal)).toMatchObject({ code: -32003 });
  });

  test("generic CRUD never shows the private fields", async () => {
    const s = await verified();
    const sid = (await sql(t, `select sid from "kyc_personal_data"`))[0]?.sid;
    const r = await ada.rpc("kycpersonaldata.get", { sid });
    expect(r.result).toMatchObject({ resident_id: s.residentId });
    for (const field of ALL) expect(r.result).not.toHaveProperty(field);
  });
});
