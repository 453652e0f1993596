import { beforeEach, describe, expect, test } from "vitest";
import { PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";
import { bearer } from "./support.ts";

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});

async function login(email: string, password = PASSWORD) {
  return t.rpc("authservice.login", { email, password });
}

describe("register and login", () => {
  test("register answers an AuthResult whose access token works at once", async () => {
    const r = await t.rpc("authservice.register", { email: "Ada@Example.org", password: PASSWORD, first_name: "Ada" });
    expect(r.result).toMatchObject({ token_type: "Bearer", user_id: expect.any(String) });
    expect(r.result.access_token).toMatch(/^fzs_[A-Za-z0-9_-]{43}$/);
    expect(r.result.refresh_token).toMatch(/^fzr_/);
    const me = await t.rpc("authservice.me", {}, bearer(r.result.access_token));
    expect(me.result).toMatchObject({ email: "ada@example.org", first_name: "Ada", email_verified: false });
  });

  test("register refuses an email already registered, in any case, and writes nothing", async () => {
    await t.register("ada@example.org");
    const r = await t.rpc("authservice.register", { email: "ADA@example.org", password: PASSWORD });
    expect(r.error).toMatchObject({ code: -32005, data: { type: "RegistrationError", variant: "AlreadyExists" } });
    expect(await count(t, "user")).toBe(1);
  });

  test("register refuses a weak password naming the rule, and writes nothing", async () => {
    for (const [password, rule] of [
      ["short1!", "must have at least 8 characters"],
      ["x".repeat(129), "must have at most 128 characters"],
      ["password123", "is too common"],
      ["ada@example.org", "must not equal the email"],
    ]) {
      const r = await t.rpc("authservice.register", { email: "ada@example.org", password });
      expect(r.error).toMatchObject({
        code: -32006,
        data: { type: "RegistrationError", variant: "WeakPassword", rule },
      });
    }
    expect(await count(t, "user")).toBe(0);
    expect(await count(t, "session")).toBe(0);
  });

  test("login answers a fresh session; tokens are stored only as SHA-256", async () => {
    const ada = await t.register("ada@example.org");
    const r = await login("ada@example.org");
    expect(r.result.user_id).toBe(ada.userId);
    const rows = await sql(t, `select token_hash from "session" where user_id = ?`, [ada.userId]);
    expect(rows).toHaveLength(2);
    const { createHash } = await import("node:crypto");
    const hash = createHash("sha256").update(r.result.access_token).digest("hex");
    expect(rows.map((x) => x.token_hash)).toContain(hash);
    expect(JSON.stringify(rows)).not.toContain(r.result.access_token);
  });

  test("a wrong password and an unknown email answer the same InvalidCredentials", async () => {
    await t.register("ada@example.org");
    const wrong = await login("ada@example.org", "not the password 99");
    const unknown = await login("nobody@example.org");
    expect(wrong.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "InvalidCredentials" } });
    expect(unknown.error).toEqual(wrong.error);
    expect(await count(t, "session")).toBe(1);
  });
});

describe("me", () => {
  test("me is side-effect free: no new session, no rotation, nothing updated", async () => {
    const ada = await t.register("ada@example.org");
    const before = await sql(t, `select * from "session" order by sid`);
    await ada.rpc("authservice.me", {});
    await ada.rpc("authservice.me", { user_id: ada.userId });
    expect(await sql(t, `select * from "session" order by sid`)).toEqual(before);
  });

  test("me naming another user is refused with -32002", async () => {
    const ada = await t.register("ada@example.org");
    const bob = await t.register("bob@example.org");
    const r = await bob.rpc("authservice.me", { user_id: ada.userId });
    expect(r.error).toMatchObject({ code: -32002, data: { type: "AuthError", variant: "NotOwner" } });
  });

  test("an access token stops working after an hour (TokenExpired)", async () => {
    const ada = await t.register("ada@example.org");
    t.clock.advance(3600);
    const r = await ada.rpc("authservice.me", {});
    expect(r.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "TokenExpired" } });
  });
});

describe("refresh_token", () => {
  test("refresh rotates: a new pair works, the old access and refresh tokens stop", async () => {
    await t.register("ada@example.org");
    const first = (await login("ada@example.org")).result;
    const second = await t.rpc("authservice.refresh_token", { token: first.refresh_token });
    expect(second.result).toMatchObject({ user_id: first.user_id, token_type: "Bearer" });
    expect(second.result.refresh_token).not.toBe(first.refresh_token);
    expect((await t.rpc("authservice.me", {}, bearer(second.result.access_token))).result.user_id).toBe(first.user_id);
    const old = await t.rpc("authservice.me", {}, bearer(first.access_token));
    expect(old.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
  });

  test("reusing a rotated refresh token is AlreadyUsed and ends the whole session family", async () => {
    await t.register("ada@example.org");
    const first = (await login("ada@example.org")).result;
    const second = (await t.rpc("authservice.refresh_token", { token: first.refresh_token })).result;
    const reuse = await t.rpc("authservice.refresh_token", { token: first.refresh_token });
    expect(reuse.error).toMatchObject({ code: -32005, data: { type: "AuthError", variant: "AlreadyUsed" } });
    const me = await t.rpc("authservice.me", {}, bearer(second.access_token));
    expect(me.error).toMatchObject({ code: -32001 });
    const again = await t.rpc("authservice.refresh_token", { token: second.refresh_token });
    expect(again.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
  });

  test("the family revocation spares the user's other sessions", async () => {
    const ada = await t.register("ada@example.org");
    const first = (await login("ada@example.org")).result;
    await t.rpc("authservice.refresh_token", { token: first.refresh_token });
    await t.rpc("authservice.refresh_token", { token: first.refresh_token });
    expect((await ada.rpc("authservice.me", {})).result.user_id).toBe(ada.userId);
  });

  test("an unknown refresh token is InvalidCredentials and writes nothing", async () => {
    await t.register("ada@example.org");
    const r = await t.rpc("authservice.refresh_token", { token: "fzr_nope" });
    expect(r.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "InvalidCredentials" } });
    expect(await count(t, "session")).toBe(1);
  });

  test("an expired refresh token is TokenExpired and writes nothing", async () => {
    await t.register("ada@example.org");
    const first = (await login("ada@example.org")).result;
    t.clock.advance(30 * 24 * 3600);
    const r = await t.rpc("authservice.refresh_token", { token: first.refresh_token });
    expect(r.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "TokenExpired" } });
    expect(await count(t, "session", "revoked_at is not null")).toBe(0);
    expect(await count(t, "session")).toBe(2);
  });

  test("an access token is not a refresh token", async () => {
    const ada = await t.register("ada@example.org");
    const r = await t.rpc("authservice.refresh_token", { token: ada.token });
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
  });
});

describe("logout", () => {
  test("logout ends this session only: its tokens stop, other sessions stay", async () => {
    const ada = await t.register("ada@example.org");
    const other = (await login("ada@example.org")).result;
    const r = await t.rpc("authservice.logout", {}, bearer(other.access_token));
    expect(r.result).toEqual({ logged_out: true, revoked_at: t.clock.now().toISOString() });
    expect((await t.rpc("authservice.me", {}, bearer(other.access_token))).error).toMatchObject({ code: -32001 });
    const refresh = await t.rpc("authservice.refresh_token", { token: other.refresh_token });
    expect(refresh.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
    expect((await ada.rpc("authservice.me", {})).result.user_id).toBe(ada.userId);
  });

  test("logout without credentials is -32001 MissingCredentials", async () => {
    const r = await t.rpc("authservice.logout", {});
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "MissingCredentials" } });
  });
});
