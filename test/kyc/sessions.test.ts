import { beforeEach, describe, expect, test } from "vitest";
import { type Client, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";
import {
  deliver,
  insertResident,
  KEY_1,
  KEY_2,
  partnerWithKey,
  residentRow,
  sandboxVerdict,
  sessionRow,
  startKyc,
} from "./support.ts";

let t: TestApp;
let ada: Client;
let bob: Client;
// Access tokens outlive the 24-hour sessions, so expiry can be tested with the same sign-in.
const LONG_TOKENS = { accessTokenTtlS: 7 * 24 * 3600 };
beforeEach(async () => {
  t = await startTestApp(LONG_TOKENS);
  ada = await t.register("ada@example.org");
  bob = await t.register("bob@example.org");
});

const DAY_MS = 24 * 3600 * 1000;

describe("start_verification", () => {
  test("opens a pending session with the sandbox URL, bound to the key, expiring after 24 hours", async () => {
    const residentId = await insertResident(t, ada.userId);
    const r = await ada.callOk("kycservice.start_verification", {
      resident_id: residentId,
      public_key: KEY_1,
      callback_url: "https://app.example.org/kyc/done",
    });
    expect(r).toEqual({
      session_id: expect.any(String),
      resident_id: residentId,
      status: "pending",
      kyc_url: expect.stringMatching(/^https:\/\/identity\.sandbox\.invalid\/kyc\/sbx-kyc-approved-[0-9a-f]{24}$/),
      verification_level: "full",
      callback_url: "https://app.example.org/kyc/done",
      expires_at: new Date(t.clock.now().getTime() + DAY_MS).toISOString(),
      created_at: t.clock.now().toISOString(),
    });
    const row = await sessionRow(t, r.session_id);
    expect(row).toMatchObject({ user_id: ada.userId, public_key: KEY_1, status: "pending" });
    expect(r.kyc_url.endsWith(row["kycprovider_scan_ref"])).toBe(true);
  });

  test("the session lifetime is configuration (KYC_SESSION_TTL_S)", async () => {
    t = await startTestApp({ ...LONG_TOKENS, kyc: { ...t.config.kyc, sessionTtlS: 600 } });
    ada = await t.register("ada@example.org");
    const residentId = await insertResident(t, ada.userId);
    const { expiresAt } = await startKyc(t, ada, residentId);
    expect(expiresAt).toBe(new Date(t.clock.now().getTime() + 600_000).toISOString());
  });

  test("an open session is answered again instead of opening a second one", async () => {
    const residentId = await insertResident(t, ada.userId);
    const first = await startKyc(t, ada, residentId);
    t.clock.advance(60);
    const again = await ada.callOk("kycservice.start_verification", { resident_id: residentId, public_key: KEY_1 });
    expect(again.session_id).toBe(first.sessionId);
    expect(await count(t, "kyc_session")).toBe(1);
  });

  test("an open session bound to another key is InvalidState and opens nothing", async () => {
    const residentId = await insertResident(t, ada.userId);
    const first = await startKyc(t, ada, residentId);
    const other = await ada.call("kycservice.start_verification", { resident_id: residentId, public_key: KEY_2 });
    expect(errorOf(other)).toMatchObject({
      code: -32005,
      data: { type: "KycError", variant: "InvalidState", session_id: first.sessionId },
    });
    expect(await count(t, "kyc_session")).toBe(1);
  });

  test("concurrent starts for one resident open exactly one session", async () => {
    const residentId = await insertResident(t, ada.userId);
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        ada.call("kycservice.start_verification", { resident_id: residentId, public_key: KEY_1 }),
      ),
    );
    const ids = new Set(replies.map((r) => ("result" in r ? r.result.session_id : JSON.stringify(r.error))));
    expect(ids.size).toBe(1);
    expect(await count(t, "kyc_session")).toBe(1);
  });

  test("another user's, an unknown and a partner's resident are NotFound alike, and nothing is written", async () => {
    const adas = await insertResident(t, ada.userId);
    const foreign = await bob.call("kycservice.start_verification", { resident_id: adas, public_key: KEY_1 });
    const unknown = await bob.call("kycservice.start_verification", {
      resident_id: "FZ-2026-RA999999",
      public_key: KEY_1,
    });
    expect(errorOf(foreign)).toEqual(errorOf(unknown));
    expect(errorOf(foreign)).toMatchObject({ code: -32003, data: { type: "KycError", variant: "NotFound" } });
    expect(await count(t, "kyc_session")).toBe(0);
  });

  test("ownership is the pair: a partner's key owns its user-less residents, never another partner's or a person's", async () => {
    const admin = await t.admin();
    const acme = await partnerWithKey(t, admin, "Acme");
    const globex = await partnerWithKey(t, admin, "Globex");
    const acmeClient = await insertResident(t, null, { partner_id: acme.partnerId });
    const globexClient = await insertResident(t, null, { partner_id: globex.partnerId });
    const adas = await insertResident(t, ada.userId);
    const own = await acme.rpc("kycservice.start_verification", { resident_id: acmeClient, public_key: KEY_1 });
    expect(own.result.status).toBe("pending");
    expect((await sessionRow(t, own.result.session_id))["user_id"]).toBe(acme.walletUserId);
    for (const residentId of [globexClient, adas]) {
      const r = await acme.rpc("kycservice.start_verification", { resident_id: residentId, public_key: KEY_1 });
      expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    }
    const personal = await ada.call("kycservice.start_verification", { resident_id: acmeClient, public_key: KEY_1 });
    expect(errorOf(personal)).toMatchObject({ code: -32003 });
    expect(await count(t, "kyc_session")).toBe(1);
  });

  test.each([
    ["uppercase hex", KEY_1.toUpperCase()],
    ["63 characters", KEY_1.slice(1)],
    ["65 characters", `${KEY_1}0`],
    ["not hex", `${KEY_1.slice(0, 63)}g`],
    ["not a curve point", "0200000000000000000000000000000000000000000000000000000000000000"],
    ["non-canonical encoding", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"],
    ["small order (identity)", "0100000000000000000000000000000000000000000000000000000000000000"],
    ["small order (order 8)", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"],
  ])("a malformed public key (%s) is InvalidInput and opens nothing", async (_name, key) => {
    const residentId = await insertResident(t, ada.userId);
    const r = await ada.call("kycservice.start_verification", { resident_id: residentId, public_key: key });
    expect(errorOf(r)).toMatchObject({
      code: -32006,
      data: { type: "KycError", variant: "InvalidInput", field: "public_key" },
    });
    expect(await count(t, "kyc_session")).toBe(0);
  });

  test("a key other than the resident's stored one is InvalidInput; the stored one is accepted", async () => {
    const residentId = await insertResident(t, ada.userId, { public_key: KEY_2, keypair_version: 1 });
    const wrong = await ada.call("kycservice.start_verification", { resident_id: residentId, public_key: KEY_1 });
    expect(errorOf(wrong)).toMatchObject({ data: { variant: "InvalidInput", field: "public_key" } });
    const right = await ada.callOk("kycservice.start_verification", { resident_id: residentId, public_key: KEY_2 });
    expect(right.status).toBe("pending");
  });

  test.each([
    ["http", "http://app.example.org/done"],
    ["not a URL", "app.example.org/done"],
    ["credentials", "https://user:pw@app.example.org/done"],
    ["too long", `https://app.example.org/${"a".repeat(2030)}`],
  ])("a bad callback URL (%s) is InvalidInput and opens nothing", async (_name, url) => {
    const residentId = await insertResident(t, ada.userId);
    const r = await ada.call("kycservice.start_verification", {
      resident_id: residentId,
      public_key: KEY_1,
      callback_url: url,
    });
    expect(errorOf(r)).toMatchObject({ code: -32006, data: { variant: "InvalidInput", field: "callback_url" } });
    expect(await count(t, "kyc_session")).toBe(0);
  });

  test.each(["active", "suspended", "expired"])("a %s resident cannot start a verification", async (status) => {
    const residentId = await insertResident(t, ada.userId, { status });
    const r = await ada.call("kycservice.start_verification", { resident_id: residentId, public_key: KEY_1 });
    expect(errorOf(r)).toMatchObject({ code: -32005, data: { type: "KycError", variant: "InvalidState", status } });
    expect(await count(t, "kyc_session")).toBe(0);
  });

  test("a verified resident (provider reference or completed session) cannot start again", async () => {
    const withRef = await insertResident(t, ada.userId, { kyc_provider_id: "idref-old" });
    const r1 = await ada.call("kycservice.start_verification", { resident_id: withRef, public_key: KEY_1 });
    expect(errorOf(r1)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const residentId = await insertResident(t, bob.userId);
    const s = await startKyc(t, bob, residentId);
    await deliver(t, sandboxVerdict(t, s.scanRef));
    const r2 = await bob.call("kycservice.start_verification", { resident_id: residentId, public_key: KEY_1 });
    expect(errorOf(r2)).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect(await count(t, "kyc_session")).toBe(1);
  });

  test("the provider being down is ProviderUnavailable and writes nothing", async () => {
    const residentId = await insertResident(t, ada.userId, { last_name: "Lovelace sandbox-unavailable" });
    const r = await ada.call("kycservice.start_verification", { resident_id: residentId, public_key: KEY_1 });
    expect(errorOf(r)).toMatchObject({ code: -32009, data: { type: "KycError", variant: "ProviderUnavailable" } });
    expect(await count(t, "kyc_session")).toBe(0);
  });

  test("the sandbox marker in the name chooses the verdict the scan reference carries", async () => {
    for (const outcome of ["denied", "suspected", "silent"]) {
      const user = await t.register(`${outcome}@example.org`);
      const residentId = await insertResident(t, user.userId, { first_name: `Ada SANDBOX-${outcome.toUpperCase()}` });
      const r = await user.callOk("kycservice.start_verification", { resident_id: residentId, public_key: KEY_1 });
      expect(r.kyc_url).toContain(`/sbx-kyc-${outcome}-`);
    }
  });
});

describe("check_status and expiry", () => {
  test("the owner and an administrator read the status; anyone else gets NotFound", async () => {
    const residentId = await insertResident(t, ada.userId);
    const s = await startKyc(t, ada, residentId);
    const mine = await ada.callOk("kycservice.check_status", { session_id: s.sessionId });
    expect(mine).toEqual({
      session_id: s.sessionId,
      resident_id: residentId,
      status: "pending",
      identity_verified: false,
      document_verified: false,
      liveness_verified: false,
      verification_level: "full",
      provider_verdict: null,
      review_reason: null,
      verified_at: null,
      expires_at: s.expiresAt,
      updated_at: t.clock.now().toISOString(),
    });
    const admin = await t.admin();
    expect((await admin.callOk("kycservice.check_status", { session_id: s.sessionId })).status).toBe("pending");
    const other = await bob.call("kycservice.check_status", { session_id: s.sessionId });
    const unknown = await bob.call("kycservice.check_status", { session_id: "nope" });
    expect(errorOf(other)).toMatchObject({ code: -32003, data: { type: "KycError", variant: "NotFound" } });
    expect(errorOf(other)).toEqual(errorOf(unknown));
  });

  test("a session the provider never answers reads pending until the instant before its deadline, expired at it", async () => {
    const residentId = await insertResident(t, ada.userId, { last_name: "sandbox-silent" });
    const s = await startKyc(t, ada, residentId);
    t.clock.set(new Date(Date.parse(s.expiresAt) - 1).toISOString());
    expect((await ada.callOk("kycservice.check_status", { session_id: s.sessionId })).status).toBe("pending");
    t.clock.set(s.expiresAt);
    expect((await ada.callOk("kycservice.check_status", { session_id: s.sessionId })).status).toBe("expired");
    // Lazy: the read stored nothing.
    expect((await sessionRow(t, s.sessionId))["status"]).toBe("pending");
  });

  test("at the deadline a new start stores the expiry and opens a fresh session", async () => {
    const residentId = await insertResident(t, ada.userId);
    const s = await startKyc(t, ada, residentId);
    t.clock.set(s.expiresAt);
    const fresh = await ada.callOk("kycservice.start_verification", { resident_id: residentId, public_key: KEY_2 });
    expect(fresh.session_id).not.toBe(s.sessionId);
    expect((await sessionRow(t, s.sessionId))["status"]).toBe("expired");
  });

  test("a verdict arriving at the deadline expires the session and verifies nothing", async () => {
    const residentId = await insertResident(t, ada.userId);
    const s = await startKyc(t, ada, residentId);
    t.clock.set(new Date(Date.parse(s.expiresAt) - 1).toISOString());
    const early = sandboxVerdict(t, s.scanRef, { verdict: "pending" });
    expect((await deliver(t, early)).result).toMatchObject({ matched: true, status: "in_progress" });
    t.clock.set(s.expiresAt);
    const late = await deliver(t, sandboxVerdict(t, s.scanRef));
    expect(late.result).toMatchObject({ matched: true, duplicate: false, status: "expired" });
    expect(await sessionRow(t, s.sessionId)).toMatchObject({ status: "expired", identity_verified: false });
    expect((await residentRow(t, residentId))["kyc_provider_id"]).toBe("");
    expect(await sql(t, `select 1 from "kyc_personal_data"`)).toHaveLength(0);
  });
});
