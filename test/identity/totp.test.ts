import { createHash } from "node:crypto";
import { beforeEach, describe, expect, test } from "vitest";
import { PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, insertApiKey, sql } from "../support/helpers.ts";
import { enrolTotp, limits, totpNow } from "./support.ts";

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});

const login = (email = "ada@example.org", password = PASSWORD) => t.rpc("authservice.login", { email, password });
const userRow = async (email = "ada@example.org") =>
  (await sql(t, `select * from "user" where email = ?`, [email]))[0] ?? {};
const challenge = async () => (await login()).result.mfa_challenge as string;

describe("TOTP enrolment", () => {
  test("enroll_begin gives a SHA1/6/30 secret and URI; TOTP stays off until confirmed", async () => {
    const ada = await t.register("ada@example.org");
    const r = await ada.rpc("authservice.user_totp_enroll_begin", {});
    expect(r.result).toMatchObject({ algorithm: "SHA1", digits: 6, period: 30 });
    expect(r.result.otpauth_uri).toContain(`secret=${r.result.secret}`);
    expect((await ada.rpc("authservice.me", {})).result.totp_enabled).toBe(false);
    expect((await login()).result.access_token).toBeDefined();
  });

  test("enroll_confirm turns TOTP on and shows ten distinct backup codes, stored only as hashes", async () => {
    const ada = await t.register("ada@example.org");
    const { backupCodes } = await enrolTotp(t, ada);
    expect(new Set(backupCodes).size).toBe(10);
    expect((await ada.rpc("authservice.me", {})).result.totp_enabled).toBe(true);
    const row = await userRow();
    const hash = (c: string) => createHash("sha256").update(c.replace("-", "")).digest("hex");
    expect(row.backup_code_hashes).toEqual(backupCodes.map(hash));
    expect(JSON.stringify(row)).not.toContain(backupCodes[0]);
  });

  test("a wrong confirmation code is InvalidCredentials and leaves TOTP off", async () => {
    const ada = await t.register("ada@example.org");
    const begin = await ada.rpc("authservice.user_totp_enroll_begin", {});
    const wrong = (await totpNow(t, begin.result.secret)) === "000000" ? "111111" : "000000";
    const r = await ada.rpc("authservice.user_totp_enroll_confirm", { code: wrong });
    expect(r.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "InvalidCredentials" } });
    const row = await userRow();
    expect(row.totp_enabled).toBe(false);
    expect(row.backup_code_hashes).toEqual([]);
  });

  test("confirm without a pending enrolment, and begin when TOTP is on, are InvalidState", async () => {
    const ada = await t.register("ada@example.org");
    const early = await ada.rpc("authservice.user_totp_enroll_confirm", { code: "123456" });
    expect(early.error).toMatchObject({ code: -32005, data: { type: "AuthError", variant: "InvalidState" } });
    await enrolTotp(t, ada);
    const again = await ada.rpc("authservice.user_totp_enroll_begin", {});
    expect(again.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
  });

  test("TOTP enrolment with an API key is SessionRequired", async () => {
    const ada = await t.register("ada@example.org");
    const { key } = await insertApiKey(t.app.runtime.orm, ada.userId);
    const r = await t.rpc("authservice.user_totp_enroll_begin", {}, { "x-api-key": key });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "SessionRequired" } });
    expect((await userRow()).totp_secret).toBeNull();
  });

  test("the seed is always stored sealed (AES-256-GCM) and still works", async () => {
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    const stored = String((await userRow()).totp_secret);
    expect(stored).toMatch(/^enc:[0-9a-f]{24}:[0-9a-f]+$/);
    expect(stored).not.toContain(secret);
    const r = await t.rpc("authservice.login_mfa", { challenge: await challenge(), code: await totpNow(t, secret) });
    expect(r.result.access_token).toBeDefined();
  });
});

describe("login with a second factor", () => {
  test("login with TOTP on answers an MFA challenge and no session", async () => {
    const ada = await t.register("ada@example.org");
    await enrolTotp(t, ada);
    const sessions = await count(t, "session");
    const r = await login();
    expect(r.result).toEqual({
      user_id: ada.userId,
      mfa_required: true,
      mfa_challenge: expect.stringMatching(/^fzm_/),
      challenge_expires_at: new Date(t.clock.now().getTime() + 300_000).toISOString(),
    });
    expect(await count(t, "session")).toBe(sessions);
  });

  test("login_mfa with the current code opens a session; the challenge works once", async () => {
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    const c = await challenge();
    const r = await t.rpc("authservice.login_mfa", { challenge: c, code: await totpNow(t, secret) });
    expect(r.result).toMatchObject({ user_id: ada.userId, token_type: "Bearer" });
    t.clock.advance(30);
    const again = await t.rpc("authservice.login_mfa", { challenge: c, code: await totpNow(t, secret) });
    expect(again.error).toMatchObject({ code: -32005, data: { type: "AuthError", variant: "AlreadyUsed" } });
  });

  test("a TOTP code cannot be replayed within its window", async () => {
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    const code = await totpNow(t, secret);
    expect((await t.rpc("authservice.login_mfa", { challenge: await challenge(), code })).result).toBeDefined();
    const sessions = await count(t, "session");
    const replay = await t.rpc("authservice.login_mfa", { challenge: await challenge(), code });
    expect(replay.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "InvalidCredentials" } });
    expect(await count(t, "session")).toBe(sessions);
  });

  test("a backup code works once, typed in any case and with or without its hyphen", async () => {
    const ada = await t.register("ada@example.org");
    const { backupCodes } = await enrolTotp(t, ada);
    const code = String(backupCodes[3]);
    const r = await t.rpc("authservice.login_mfa", { challenge: await challenge(), code: code.toUpperCase() });
    expect(r.result.user_id).toBe(ada.userId);
    const reuse = await t.rpc("authservice.login_mfa", { challenge: await challenge(), code: code.replace("-", "") });
    expect(reuse.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
    expect((await userRow()).backup_code_hashes).toHaveLength(9);
  });

  test("five wrong codes spend the challenge", async () => {
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    const c = await challenge();
    for (let i = 0; i < 5; i++) {
      const r = await t.rpc("authservice.login_mfa", { challenge: c, code: "abcde-fghjk" });
      expect(r.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
    }
    const r = await t.rpc("authservice.login_mfa", { challenge: c, code: await totpNow(t, secret) });
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "AlreadyUsed" } });
  });

  test("an expired challenge is Expired and an unknown one InvalidCredentials", async () => {
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    const c = await challenge();
    t.clock.advance(300);
    const late = await t.rpc("authservice.login_mfa", { challenge: c, code: await totpNow(t, secret) });
    expect(late.error).toMatchObject({ code: -32005, data: { type: "AuthError", variant: "Expired" } });
    const unknown = await t.rpc("authservice.login_mfa", { challenge: "fzm_nope", code: "123456" });
    expect(unknown.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
  });

  test("second-factor failures are limited per account, then even a right code is RateLimited", async () => {
    t = await startTestApp({ rateLimits: limits({ perAccountFailures: 3 }) });
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    for (let i = 0; i < 3; i++) {
      await t.rpc("authservice.login_mfa", { challenge: await challenge(), code: "abcde-fghjk" });
    }
    const r = await t.rpc("authservice.login_mfa", { challenge: await challenge(), code: await totpNow(t, secret) });
    expect(r.error).toMatchObject({ code: -32007, data: { type: "AuthError", variant: "RateLimited" } });
    expect(r.error?.data.retry_after_s).toBeGreaterThan(0);
    t.clock.advance(15 * 60);
    const later = await t.rpc("authservice.login_mfa", {
      challenge: await challenge(),
      code: await totpNow(t, secret),
    });
    expect(later.result.user_id).toBe(ada.userId);
  });
});

describe("refusals that keep what they spent (calls roll back; these writes survive)", () => {
  const setSuspended = (userId: string, on: boolean) =>
    sql(t, `update "user" set is_suspended = ? where sid = ?`, [on, userId]);
  const failures = async (bucket: string) =>
    Number((await sql(t, `select count from "rate_limit_counter" where bucket = ?`, [bucket]))[0]?.count ?? 0);

  test("login_mfa of a suspended account is Suspended, yet spends the challenge and the code and counts no failure", async () => {
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    const c = await challenge();
    const code = await totpNow(t, secret);
    await setSuspended(ada.userId, true);
    const r = await t.rpc("authservice.login_mfa", { challenge: c, code });
    expect(r.error).toMatchObject({ code: -32002, data: { type: "AuthError", variant: "Suspended" } });
    // The right code was proven: no failure stays counted against the account.
    expect(await failures(`acct:second-factor:${ada.userId}`)).toBe(0);
    await setSuspended(ada.userId, false);
    const sessions = await count(t, "session");
    const again = await t.rpc("authservice.login_mfa", { challenge: c, code });
    expect(again.error).toMatchObject({ code: -32005, data: { variant: "AlreadyUsed" } });
    const replay = await t.rpc("authservice.login_mfa", { challenge: await challenge(), code });
    expect(replay.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
    expect(await count(t, "session")).toBe(sessions);
  });

  test("a backup code used by a suspended account's login_mfa stays spent", async () => {
    const ada = await t.register("ada@example.org");
    const { backupCodes } = await enrolTotp(t, ada);
    const c = await challenge();
    await setSuspended(ada.userId, true);
    const r = await t.rpc("authservice.login_mfa", { challenge: c, code: backupCodes[0] });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "Suspended" } });
    expect((await userRow()).backup_code_hashes).toHaveLength(9);
  });

  test("a suspended account's right password is Suspended every time, never RateLimited", async () => {
    t = await startTestApp({ rateLimits: limits({ perAccountFailures: 3 }) });
    const ada = await t.register("ada@example.org");
    await setSuspended(ada.userId, true);
    for (let i = 0; i < 4; i++) {
      const r = await login();
      expect(r.error).toMatchObject({ code: -32002, data: { type: "AuthError", variant: "Suspended" } });
    }
    expect(await failures("acct:login:ada@example.org")).toBe(0);
  });
});

describe("step-up and disable", () => {
  test("user_totp_verify answers valid for a fresh code and not valid for a wrong one", async () => {
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    const ok = await ada.rpc("authservice.user_totp_verify", { code: await totpNow(t, secret) });
    expect(ok.result).toEqual({
      valid: true,
      method: "totp",
      verified_at: t.clock.now().toISOString(),
      backup_codes_remaining: 10,
    });
    const replay = await ada.rpc("authservice.user_totp_verify", { code: await totpNow(t, secret) });
    expect(replay.result).toEqual({ valid: false, method: null, verified_at: null, backup_codes_remaining: 10 });
  });

  test("user_totp_verify works with an API key and spends backup codes", async () => {
    const ada = await t.register("ada@example.org");
    const { backupCodes } = await enrolTotp(t, ada);
    const { key } = await insertApiKey(t.app.runtime.orm, ada.userId);
    const r = await t.rpc("authservice.user_totp_verify", { code: backupCodes[0] }, { "x-api-key": key });
    expect(r.result).toMatchObject({ valid: true, method: "backup_code", backup_codes_remaining: 9 });
  });

  test("user_totp_verify with TOTP off is InvalidState", async () => {
    const ada = await t.register("ada@example.org");
    const r = await ada.rpc("authservice.user_totp_verify", { code: "123456" });
    expect(r.error).toMatchObject({ code: -32005, data: { type: "AuthError", variant: "InvalidState" } });
  });

  test("user_totp_disable with a fresh code turns TOTP off and deletes the secret and backup codes", async () => {
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    const r = await ada.rpc("authservice.user_totp_disable", { code: await totpNow(t, secret) });
    expect(r.result).toMatchObject({ user_id: ada.userId, changed: true, totp_enabled: false, sessions_revoked: 0 });
    const row = await userRow();
    expect(row).toMatchObject({ totp_enabled: false, totp_secret: null, totp_last_step: null, backup_code_hashes: [] });
    expect((await login()).result.access_token).toBeDefined();
  });

  test("user_totp_disable with a wrong or replayed code is InvalidCredentials and keeps TOTP on", async () => {
    const ada = await t.register("ada@example.org");
    const { secret } = await enrolTotp(t, ada);
    const code = await totpNow(t, secret);
    await ada.rpc("authservice.user_totp_verify", { code });
    const r = await ada.rpc("authservice.user_totp_disable", { code });
    expect(r.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "InvalidCredentials" } });
    expect((await userRow()).totp_enabled).toBe(true);
  });

  test("user_totp_disable with TOTP off is InvalidState", async () => {
    const ada = await t.register("ada@example.org");
    const r = await ada.rpc("authservice.user_totp_disable", { code: "123456" });
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
  });
});
