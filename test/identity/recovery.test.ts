import { beforeEach, describe, expect, test } from "vitest";
import type { RecoveryVerdict } from "../../src/integrations/identity/index.ts";
import { sandboxRecoveryCallback } from "../../src/integrations/identity/sandbox.ts";
import { PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { insertRow, residentValues } from "../support/rows.ts";
import { enrolTotp, limits } from "./support.ts";

let t: TestApp;
let userId: string;
beforeEach(async () => {
  t = await startTestApp();
  const ada = await t.register("ada@example.org");
  userId = ada.userId;
  await enrolTotp(t, ada);
});

const KYC_REF = "kyc-ada-0001";
const withResident = (kycProviderId = KYC_REF) =>
  insertRow(t.app.runtime.orm, "DigitalResident", residentValues(userId, { kyc_provider_id: kycProviderId }));
const challenge = async () =>
  (await t.rpc("authservice.login", { email: "ada@example.org", password: PASSWORD })).result.mfa_challenge as string;
const totpOn = async () => (await sql(t, `select totp_enabled from "user" where sid = ?`, [userId]))[0]?.totp_enabled;

async function begin() {
  const r = await t.rpc("authservice.begin_2fa_recovery", { mfa_challenge: await challenge() });
  if (!r.result) throw new Error(JSON.stringify(r.body));
  const scanRef = (
    await sql(t, `select kycprovider_scan_ref from "mfa_recovery_session" where sid = ?`, [r.result.recovery_id])
  )[0]?.kycprovider_scan_ref as string;
  return { ...r.result, scanRef };
}

let events = 0;
function verdict(scanRef: string, changes: Partial<RecoveryVerdict> = {}): RecoveryVerdict {
  events += 1;
  return {
    event_id: `evt-${events}`,
    scan_ref: scanRef,
    verdict: "approved",
    matched_kyc_provider_id: KYC_REF,
    reason: null,
    occurred_at: t.clock.now().toISOString(),
    ...changes,
  };
}

async function deliver(v: RecoveryVerdict, secret = t.config.webhookSecret, at = t.clock.now()) {
  const { body, headers } = sandboxRecoveryCallback(secret, v, at);
  return t.post("/rpc", body, headers);
}

const poll = async (id: string) => (await t.rpc("authservice.poll_2fa_recovery", { recovery_id: id })).result;

describe("begin_2fa_recovery", () => {
  test("begin opens a pending 30-minute recovery with the provider's URL and spends the challenge", async () => {
    await withResident();
    const c = await challenge();
    const r = await t.rpc("authservice.begin_2fa_recovery", { mfa_challenge: c });
    expect(r.result).toEqual({
      recovery_id: expect.any(String),
      status: "pending",
      kyc_url: expect.stringMatching(/^https:\/\/identity\.sandbox\.invalid\/reverify\/sbx-rec-/),
      expires_at: new Date(t.clock.now().getTime() + 30 * 60_000).toISOString(),
    });
    expect(await poll(r.result.recovery_id)).toMatchObject({ status: "pending" });
    const reuse = await t.rpc("authservice.login_mfa", { challenge: c, code: "123456" });
    expect(reuse.error).toMatchObject({ code: -32005, data: { variant: "AlreadyUsed" } });
  });

  test("an unknown, expired or used challenge is refused and opens nothing", async () => {
    await withResident();
    const unknown = await t.rpc("authservice.begin_2fa_recovery", { mfa_challenge: "fzm_nope" });
    expect(unknown.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "InvalidCredentials" } });
    const c = await challenge();
    t.clock.advance(300);
    const late = await t.rpc("authservice.begin_2fa_recovery", { mfa_challenge: c });
    expect(late.error).toMatchObject({ code: -32005, data: { variant: "Expired" } });
    const used = await challenge();
    await t.rpc("authservice.begin_2fa_recovery", { mfa_challenge: used });
    const again = await t.rpc("authservice.begin_2fa_recovery", { mfa_challenge: used });
    expect(again.error).toMatchObject({ code: -32005, data: { variant: "AlreadyUsed" } });
    expect(await count(t, "mfa_recovery_session")).toBe(1);
  });

  test("an account without an identity-verified resident is InvalidState and keeps its challenge", async () => {
    await insertRow(t.app.runtime.orm, "DigitalResident", residentValues(userId, { kyc_provider_id: "" }));
    const c = await challenge();
    const r = await t.rpc("authservice.begin_2fa_recovery", { mfa_challenge: c });
    expect(r.error).toMatchObject({ code: -32005, data: { type: "AuthError", variant: "InvalidState" } });
    expect(await count(t, "mfa_recovery_session")).toBe(0);
    expect(await count(t, "mfa_challenge", "used")).toBe(0);
  });

  test("an identity provider failure is ProviderUnavailable and opens nothing", async () => {
    await withResident("sandbox-unavailable-1");
    const r = await t.rpc("authservice.begin_2fa_recovery", { mfa_challenge: await challenge() });
    expect(r.error).toMatchObject({ code: -32009, data: { type: "AuthError", variant: "ProviderUnavailable" } });
    expect(await count(t, "mfa_recovery_session")).toBe(0);
  });

  test("recoveries are limited per account per day", async () => {
    t = await startTestApp({ rateLimits: limits({ recoveriesPerAccountPerDay: 1 }) });
    const ada = await t.register("ada@example.org");
    userId = ada.userId;
    await enrolTotp(t, ada);
    await withResident();
    await begin();
    const r = await t.rpc("authservice.begin_2fa_recovery", { mfa_challenge: await challenge() });
    expect(r.error).toMatchObject({ code: -32007, data: { type: "AuthError", variant: "RateLimited" } });
    expect(await count(t, "mfa_recovery_session")).toBe(1);
  });

  test("a new recovery supersedes a pending one", async () => {
    await withResident();
    const first = await begin();
    await begin();
    expect(await poll(first.recovery_id)).toMatchObject({ status: "expired" });
  });
});

describe("the provider's verdict", () => {
  test("an approved verdict for the same identity approves and turns TOTP off; the user signs in and may enrol again", async () => {
    await withResident();
    const r = await begin();
    const ack = await deliver(verdict(r.scanRef));
    expect(ack.result).toEqual({
      received: true,
      event_id: `evt-${events}`,
      duplicate: false,
      matched: true,
      status: "approved",
    });
    expect(await poll(r.recovery_id)).toMatchObject({ status: "approved" });
    expect(await totpOn()).toBe(false);
    const login = await t.rpc("authservice.login", { email: "ada@example.org", password: PASSWORD });
    expect(login.result.access_token).toBeDefined();
    const again = await t.rpc(
      "authservice.user_totp_enroll_begin",
      {},
      { authorization: `Bearer ${login.result.access_token}` },
    );
    expect(again.result.secret).toBeDefined();
  });

  test("an approval for another identity rejects and keeps TOTP on", async () => {
    await withResident();
    const r = await begin();
    const ack = await deliver(verdict(r.scanRef, { matched_kyc_provider_id: "kyc-somebody-else" }));
    expect(ack.result).toMatchObject({ matched: true, status: "rejected" });
    expect(await totpOn()).toBe(true);
  });

  test("a denied verdict rejects; a pending verdict changes nothing", async () => {
    await withResident();
    const r = await begin();
    expect((await deliver(verdict(r.scanRef, { verdict: "pending" }))).result).toMatchObject({ status: "pending" });
    expect(await poll(r.recovery_id)).toMatchObject({ status: "pending" });
    expect((await deliver(verdict(r.scanRef, { verdict: "denied" }))).result).toMatchObject({ status: "rejected" });
    expect((await deliver(verdict(r.scanRef))).result).toMatchObject({ status: "rejected" });
    expect(await totpOn()).toBe(true);
  });

  test("a verdict after 30 minutes finds the recovery expired and keeps TOTP on", async () => {
    await withResident();
    const r = await begin();
    t.clock.advance(30 * 60);
    expect(await poll(r.recovery_id)).toMatchObject({ status: "expired" });
    expect((await deliver(verdict(r.scanRef))).result).toMatchObject({ status: "expired" });
    expect(await totpOn()).toBe(true);
  });

  test("a repeated event is acknowledged without a second effect; the same id with another body is Replayed", async () => {
    await withResident();
    const r = await begin();
    const v = verdict(r.scanRef, { verdict: "denied" });
    await deliver(v);
    const repeat = await deliver(v);
    expect(repeat.result).toMatchObject({ duplicate: true, status: "rejected" });
    const replay = await deliver({ ...v, verdict: "approved" });
    expect(replay.error).toMatchObject({ code: -32005, data: { type: "WebhookError", variant: "Replayed" } });
    expect(await totpOn()).toBe(true);
    expect(await count(t, "webhook_event")).toBe(1);
  });

  test("a bad or stale signature is refused and changes nothing", async () => {
    await withResident();
    const r = await begin();
    const forged = await deliver(verdict(r.scanRef), "not-the-secret");
    expect(forged.error).toMatchObject({
      code: -32001,
      data: { type: "WebhookError", variant: "InvalidWebhookSignature" },
    });
    const stale = await deliver(
      verdict(r.scanRef),
      t.config.webhookSecret,
      new Date(t.clock.now().getTime() - 301_000),
    );
    expect(stale.error).toMatchObject({ code: -32001, data: { variant: "InvalidWebhookSignature" } });
    expect(await poll(r.recovery_id)).toMatchObject({ status: "pending" });
    expect(await count(t, "webhook_event")).toBe(0);
  });

  test("a malformed payload is -32602 and changes nothing", async () => {
    await withResident();
    const r = await begin();
    const bad = await deliver({ ...verdict(r.scanRef), verdict: "maybe" } as unknown as RecoveryVerdict);
    expect(bad.error?.code).toBe(-32602);
    expect(await poll(r.recovery_id)).toMatchObject({ status: "pending" });
  });

  test("an unknown scan reference is acknowledged with matched false", async () => {
    const ack = await deliver(verdict("sbx-rec-unknown"));
    expect(ack.result).toMatchObject({ received: true, matched: false, status: null });
  });
});

test("poll answers an unknown recovery id like an expired one", async () => {
  expect(await poll("01900000-0000-7000-8000-000000000000")).toEqual({
    recovery_id: "01900000-0000-7000-8000-000000000000",
    status: "expired",
    expires_at: null,
  });
});
