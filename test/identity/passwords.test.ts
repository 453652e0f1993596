import { createHash } from "node:crypto";
import { beforeEach, describe, expect, test } from "vitest";
import { PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, insertApiKey, sql } from "../support/helpers.ts";
import { bearer, lastEmail } from "./support.ts";

const NEW_PASSWORD = "a brand new passphrase 77";
let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});

const login = (email: string, password = PASSWORD) => t.rpc("authservice.login", { email, password });
const hashOf = async (userId: string) =>
  (await sql(t, `select password_hash from "user" where sid = ?`, [userId]))[0]?.password_hash;

describe("change_password", () => {
  test("change_password replaces the password and ends every other session, keeping this one", async () => {
    const ada = await t.register("ada@example.org");
    const other = (await login("ada@example.org")).result;
    const r = await ada.rpc("authservice.change_password", { old_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(r.result).toMatchObject({ user_id: ada.userId, changed: true, sessions_revoked: 1, totp_enabled: false });
    expect((await ada.rpc("authservice.me", {})).result.user_id).toBe(ada.userId);
    expect((await t.rpc("authservice.me", {}, bearer(other.access_token))).error).toMatchObject({ code: -32001 });
    expect((await login("ada@example.org")).error).toMatchObject({ code: -32001 });
    expect((await login("ada@example.org", NEW_PASSWORD)).result.user_id).toBe(ada.userId);
  });

  test("a wrong old password is -32002 WrongPassword and changes nothing", async () => {
    const ada = await t.register("ada@example.org");
    await login("ada@example.org");
    const before = await hashOf(ada.userId);
    const r = await ada.rpc("authservice.change_password", {
      old_password: "wrong password 1",
      new_password: NEW_PASSWORD,
    });
    expect(r.error).toMatchObject({ code: -32002, data: { type: "AuthError", variant: "WrongPassword" } });
    expect(await hashOf(ada.userId)).toBe(before);
    expect(await count(t, "session", "revoked_at is not null")).toBe(0);
  });

  test("an empty old password is -32002 PasswordRequired", async () => {
    const ada = await t.register("ada@example.org");
    const r = await ada.rpc("authservice.change_password", { old_password: "", new_password: NEW_PASSWORD });
    expect(r.error).toMatchObject({ code: -32002, data: { type: "AuthError", variant: "PasswordRequired" } });
  });

  test("a weak new password is -32006 WeakPassword and changes nothing", async () => {
    const ada = await t.register("ada@example.org");
    await login("ada@example.org");
    const before = await hashOf(ada.userId);
    const r = await ada.rpc("authservice.change_password", { old_password: PASSWORD, new_password: "12345678" });
    expect(r.error).toMatchObject({ code: -32006, data: { type: "AuthError", variant: "WeakPassword" } });
    expect(await hashOf(ada.userId)).toBe(before);
    expect(await count(t, "session", "revoked_at is not null")).toBe(0);
  });

  test("change_password with an API key is -32002 SessionRequired", async () => {
    const ada = await t.register("ada@example.org");
    const { key } = await insertApiKey(t.app.runtime.orm, ada.userId);
    const r = await t.rpc(
      "authservice.change_password",
      { old_password: PASSWORD, new_password: NEW_PASSWORD },
      { "x-api-key": key },
    );
    expect(r.error).toMatchObject({ code: -32002, data: { type: "AuthError", variant: "SessionRequired" } });
  });

  test("change_password naming another user is -32002 and changes nothing", async () => {
    const ada = await t.register("ada@example.org");
    const bob = await t.register("bob@example.org");
    const before = await hashOf(ada.userId);
    const r = await bob.rpc("authservice.change_password", {
      user_id: ada.userId,
      old_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(r.error).toMatchObject({ code: -32002, data: { variant: "NotOwner" } });
    expect(await hashOf(ada.userId)).toBe(before);
  });
});

describe("password reset", () => {
  test("request_password_reset answers the same for a known and an unknown email; only the known gets mail", async () => {
    await t.register("ada@example.org");
    const known = await t.rpc("authservice.request_password_reset", { email: "ada@example.org" });
    const unknown = await t.rpc("authservice.request_password_reset", { email: "nobody@example.org" });
    expect(known.result).toMatchObject({ accepted: true, email: "ada@example.org" });
    expect(unknown.result).toEqual({ ...known.result, email: "nobody@example.org" });
    expect(await lastEmail(t, "ada@example.org", "password_reset")).not.toBeNull();
    expect(await count(t, "email_outbox", "to_email = ?", ["nobody@example.org"])).toBe(0);
  });

  test("the reset token is stored as SHA-256 with a Unix-seconds expiry one hour ahead", async () => {
    await t.register("ada@example.org");
    await t.rpc("authservice.request_password_reset", { email: "ada@example.org" });
    const mail = await lastEmail(t, "ada@example.org", "password_reset");
    const rows = await sql(t, `select token_hash, expires_at, used from "password_reset_token"`);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(
      createHash("sha256")
        .update(mail?.code ?? "")
        .digest("hex"),
    );
    expect(Number(rows[0]?.expires_at)).toBe(Math.floor(t.clock.now().getTime() / 1000) + 3600);
    expect(mail?.body).toContain(`${t.config.publicBaseUrl}/reset-password?token=`);
  });

  test("reset_password sets the password, ends every session and works once", async () => {
    const ada = await t.register("ada@example.org");
    await t.rpc("authservice.request_password_reset", { email: "ada@example.org" });
    const { code } = (await lastEmail(t, "ada@example.org", "password_reset")) ?? { code: "" };
    const r = await t.rpc("authservice.reset_password", { token: code, new_password: NEW_PASSWORD });
    expect(r.result).toMatchObject({ user_id: ada.userId, changed: true, sessions_revoked: 1, totp_enabled: false });
    expect((await ada.rpc("authservice.me", {})).error).toMatchObject({ code: -32001 });
    expect((await login("ada@example.org", NEW_PASSWORD)).result.user_id).toBe(ada.userId);
    const again = await t.rpc("authservice.reset_password", { token: code, new_password: "yet another phrase 55" });
    expect(again.error).toMatchObject({ code: -32005, data: { type: "AuthError", variant: "AlreadyUsed" } });
    expect((await login("ada@example.org", NEW_PASSWORD)).result).toBeDefined();
  });

  test("a reset spends the other open reset links of the account too", async () => {
    await t.register("ada@example.org");
    await t.rpc("authservice.request_password_reset", { email: "ada@example.org" });
    const first = (await lastEmail(t, "ada@example.org", "password_reset"))?.code;
    t.clock.advance(1);
    await t.rpc("authservice.request_password_reset", { email: "ada@example.org" });
    const second = (await lastEmail(t, "ada@example.org", "password_reset"))?.code;
    await t.rpc("authservice.reset_password", { token: second, new_password: NEW_PASSWORD });
    const r = await t.rpc("authservice.reset_password", { token: first, new_password: "yet another phrase 55" });
    expect(r.error).toMatchObject({ code: -32005, data: { variant: "AlreadyUsed" } });
  });

  test("an expired reset token is Expired and changes nothing", async () => {
    const ada = await t.register("ada@example.org");
    await t.rpc("authservice.request_password_reset", { email: "ada@example.org" });
    const { code } = (await lastEmail(t, "ada@example.org", "password_reset")) ?? { code: "" };
    t.clock.advance(3600);
    const before = await hashOf(ada.userId);
    const r = await t.rpc("authservice.reset_password", { token: code, new_password: NEW_PASSWORD });
    expect(r.error).toMatchObject({ code: -32005, data: { type: "AuthError", variant: "Expired" } });
    expect(await hashOf(ada.userId)).toBe(before);
    expect(await count(t, "session", "revoked_at is not null")).toBe(0);
  });

  test("an unknown reset token is InvalidCredentials", async () => {
    const r = await t.rpc("authservice.reset_password", { token: "fzp_nope", new_password: NEW_PASSWORD });
    expect(r.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "InvalidCredentials" } });
  });

  test("a weak new password is WeakPassword and leaves the token usable", async () => {
    await t.register("ada@example.org");
    await t.rpc("authservice.request_password_reset", { email: "ada@example.org" });
    const { code } = (await lastEmail(t, "ada@example.org", "password_reset")) ?? { code: "" };
    const weak = await t.rpc("authservice.reset_password", { token: code, new_password: "qwerty123" });
    expect(weak.error).toMatchObject({ code: -32006, data: { type: "AuthError", variant: "WeakPassword" } });
    expect(await count(t, "password_reset_token", "used")).toBe(0);
    const ok = await t.rpc("authservice.reset_password", { token: code, new_password: NEW_PASSWORD });
    expect(ok.result.changed).toBe(true);
  });

  test("a malformed email is -32006 InvalidInput", async () => {
    const r = await t.rpc("authservice.request_password_reset", { email: "not-an-email" });
    expect(r.error).toMatchObject({ code: -32006, data: { type: "EmailError", variant: "InvalidInput" } });
  });

  test("an email provider failure is -32009 ProviderUnavailable and stores no token", async () => {
    await t.register("ada@mail.invalid");
    const r = await t.rpc("authservice.request_password_reset", { email: "ada@mail.invalid" });
    expect(r.error).toMatchObject({ code: -32009, data: { type: "EmailError", variant: "ProviderUnavailable" } });
    expect(await count(t, "password_reset_token")).toBe(0);
    expect(await count(t, "email_outbox", "template = 'password_reset' and status = 'failed'")).toBe(1);
  });
});
