import { beforeEach, describe, expect, test } from "vitest";
import { type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, sql } from "../support/helpers.ts";

let t: TestApp;
let admin: Client;
let ada: Client;
beforeEach(async () => {
  t = await startTestApp();
  admin = await t.admin();
  ada = await t.register("ada@example.org");
});

const login = () => t.rpc("authservice.login", { email: "ada@example.org", password: PASSWORD });
const suspend = (userId = ada.userId, reason = "chargeback fraud") =>
  admin.rpc("adminservice.suspend_user", { user_id: userId, reason });

describe("suspend_user", () => {
  test("suspending ends the user's sessions, refuses its keys and its logins, and writes an AdminAction", async () => {
    const key = (await ada.rpc("apikeyservice.generate_personal", { name: "k", password: PASSWORD })).result.api_key;
    const r = await suspend();
    expect(r.result).toEqual({
      user_id: ada.userId,
      email: "ada@example.org",
      is_suspended: true,
      suspended_at: t.clock.now().toISOString(),
      suspension_reason: "chargeback fraud",
      admin_action_id: expect.any(String),
    });
    expect((await ada.rpc("authservice.me", {})).error).toMatchObject({ code: -32001 });
    const viaKey = await t.rpc("authservice.me", {}, { "x-api-key": key });
    expect(viaKey.error).toMatchObject({ code: -32002, data: { type: "AuthError", variant: "Suspended" } });
    expect((await login()).error).toMatchObject({ code: -32002, data: { variant: "Suspended" } });
    const action = (await sql(t, `select * from "admin_action" where sid = ?`, [r.result.admin_action_id]))[0];
    expect(action).toMatchObject({
      admin_email: "admin@example.org",
      action: "suspend_user",
      target_type: "user",
      target_id: ada.userId,
    });
    expect(JSON.parse(action?.details)).toEqual({ reason: "chargeback fraud", sessions_revoked: 1 });
  });

  test("a suspended user's refresh token is refused", async () => {
    const session = (await login()).result;
    await suspend();
    const r = await t.rpc("authservice.refresh_token", { token: session.refresh_token });
    expect(r.error?.code).toBe(-32001);
  });

  test("unsuspending lets the user sign in again and its keys work again", async () => {
    const key = (await ada.rpc("apikeyservice.generate_personal", { name: "k", password: PASSWORD })).result.api_key;
    await suspend();
    t.clock.advance(1);
    const r = await admin.rpc("adminservice.unsuspend_user", { user_id: ada.userId });
    expect(r.result).toMatchObject({ is_suspended: false, suspended_at: null, suspension_reason: null });
    expect((await login()).result.user_id).toBe(ada.userId);
    expect((await t.rpc("authservice.me", {}, { "x-api-key": key })).result.user_id).toBe(ada.userId);
    expect((await sql(t, `select action from "admin_action" order by sid`)).map((a) => a.action)).toEqual([
      "suspend_user",
      "unsuspend_user",
    ]);
  });

  test("suspending oneself is InvalidInput, twice InvalidState, an unknown user NotFound; nothing is written", async () => {
    const self = await suspend(admin.userId);
    expect(self.error).toMatchObject({ code: -32006, data: { type: "AdminError", variant: "InvalidInput" } });
    const unknown = await suspend("nobody");
    expect(unknown.error).toMatchObject({ code: -32003, data: { type: "AdminError", variant: "NotFound" } });
    const notSuspended = await admin.rpc("adminservice.unsuspend_user", { user_id: ada.userId });
    expect(notSuspended.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect(await count(t, "admin_action")).toBe(0);
    await suspend();
    const twice = await suspend();
    expect(twice.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    expect(await count(t, "admin_action")).toBe(1);
  });

  test("a plain user cannot suspend anyone (AdminOnly) and nothing is written", async () => {
    const bob = await t.register("bob@example.org");
    const r = await bob.rpc("adminservice.suspend_user", { user_id: ada.userId, reason: "x" });
    expect(r.error).toMatchObject({ code: -32002, data: { type: "AdminError", variant: "AdminOnly" } });
    expect(await count(t, "user", "is_suspended")).toBe(0);
    expect(await count(t, "admin_action")).toBe(0);
  });
});

describe("list_admin_actions", () => {
  test("lists newest first, filters by action and target, and pages with a cursor", async () => {
    const bob = await t.register("bob@example.org");
    await suspend(ada.userId);
    t.clock.advance(1);
    await suspend(bob.userId);
    t.clock.advance(1);
    await admin.rpc("adminservice.unsuspend_user", { user_id: ada.userId });
    const all = await admin.rpc("adminservice.list_admin_actions", {});
    expect(all.result.items.map((a: { action: string }) => a.action)).toEqual([
      "unsuspend_user",
      "suspend_user",
      "suspend_user",
    ]);
    expect(all.result.next_cursor).toBeNull();
    const byAction = await admin.rpc("adminservice.list_admin_actions", { action: "suspend_user" });
    expect(byAction.result.items).toHaveLength(2);
    const byTarget = await admin.rpc("adminservice.list_admin_actions", { target_id: ada.userId });
    expect(byTarget.result.items).toHaveLength(2);
    const first = await admin.rpc("adminservice.list_admin_actions", { limit: 2 });
    expect(first.result.items).toHaveLength(2);
    const rest = await admin.rpc("adminservice.list_admin_actions", { limit: 2, cursor: first.result.next_cursor });
    expect(rest.result).toMatchObject({
      items: [{ target_id: ada.userId, action: "suspend_user" }],
      next_cursor: null,
    });
  });

  test("a malformed cursor is InvalidInput and a plain user AdminOnly", async () => {
    const bad = await admin.rpc("adminservice.list_admin_actions", { cursor: "!!" });
    expect(bad.error).toMatchObject({ code: -32006, data: { type: "AdminError", variant: "InvalidInput" } });
    const plain = await ada.rpc("adminservice.list_admin_actions", {});
    expect(plain.error).toMatchObject({ code: -32002, data: { variant: "AdminOnly" } });
  });
});
