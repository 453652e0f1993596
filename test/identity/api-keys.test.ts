import { createHash } from "node:crypto";
import { beforeEach, describe, expect, test } from "vitest";
import { type CallParams, type Client, PASSWORD, startTestApp, type TestApp } from "../support/app.ts";
import { count, errorOf, sql } from "../support/helpers.ts";

let t: TestApp;
let ada: Client;
beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
});

type GenerateParams = Partial<CallParams<"apikeyservice.generate_personal">>;
const generate = (client: Client, params: GenerateParams = {}) =>
  client.call("apikeyservice.generate_personal", { name: "scripts", password: PASSWORD, ...params });
/** The new key (and its policy), or a readable failure. */
const generated = (client: Client, params: GenerateParams = {}) =>
  client.callOk("apikeyservice.generate_personal", { name: "scripts", password: PASSWORD, ...params });
const withKey = (key: string, method: string, params: unknown = {}) => t.rpc(method, params, { "x-api-key": key });
const auditRows = (action: string) =>
  sql(
    t,
    `select subject_id, target_ref, target_type, allowed, context from "user_audit_log" where action = ? order by sid`,
    [action],
  );

describe("generate_personal", () => {
  test("a personal key is fz_u_, shown once, expires in 365 days with the default policy, and is stored as SHA-256", async () => {
    const created = await generated(ada);
    expect(created).toMatchObject({
      name: "scripts",
      prefix: "fz_u_",
      mcp_scope: null,
      expires_at: new Date(t.clock.now().getTime() + 365 * 86_400_000).toISOString(),
      max_transaction_amount: 100,
      daily_spending_limit: 500,
      monthly_spending_limit: 2000,
      max_calls_per_hour: 60,
      max_calls_per_day: 500,
      allowed_tool_patterns: "",
      blocked_tool_patterns: "",
      approval_threshold: 0,
      approval_required_tools: "",
      partner_id: null,
      allow_company_creation: false,
    });
    expect(created.api_key).toMatch(/^fz_u_[A-Za-z0-9_-]{43}$/);
    const rows = await sql(t, `select key_hash from "api_key"`);
    expect(rows).toEqual([{ key_hash: createHash("sha256").update(created.api_key).digest("hex") }]);
  });

  test("the key authenticates as its owner on /rpc and on a domain endpoint, as X-API-Key or Bearer", async () => {
    const key = (await generated(ada)).api_key;
    expect((await withKey(key, "authservice.me")).result.user_id).toBe(ada.userId);
    const bearer = await t.rpc("authservice.me", {}, { authorization: `Bearer ${key}` });
    expect(bearer.result.user_id).toBe(ada.userId);
    const domain = await t.post(
      "/freezone/identity/rpc",
      { jsonrpc: "2.0", id: 1, method: "authservice.me", params: {} },
      { "x-api-key": key },
    );
    expect(domain.result.user_id).toBe(ada.userId);
  });

  test("scope and tier policy are stored as given, patterns cleaned", async () => {
    const created = await generated(ada, {
      mcp_scope: "read",
      max_calls_per_hour: 5,
      allowed_tool_patterns: " freezone_residentservice_* , ,freezone_authservice_me ",
      approval_threshold: 50,
    });
    expect(created).toMatchObject({
      mcp_scope: "read",
      max_calls_per_hour: 5,
      allowed_tool_patterns: "freezone_residentservice_*,freezone_authservice_me",
      approval_threshold: 50,
      max_calls_per_day: 500,
    });
  });

  test("a wrong password is WrongPassword and a missing one PasswordRequired; no key is written", async () => {
    const wrong = await generate(ada, { password: "not my password 1" });
    expect(errorOf(wrong)).toMatchObject({ code: -32002, data: { type: "ApiKeyError", variant: "WrongPassword" } });
    const missing = await ada.rpc("apikeyservice.generate_personal", { name: "x" });
    expect(missing.error).toMatchObject({ code: -32002, data: { type: "ApiKeyError", variant: "PasswordRequired" } });
    expect(await count(t, "api_key")).toBe(0);
  });

  test("a bad tool pattern or a blank name is InvalidInput and writes nothing", async () => {
    const bad = await generate(ada, { blocked_tool_patterns: "freezone_*, drop table;" });
    expect(errorOf(bad)).toMatchObject({ code: -32006, data: { type: "ApiKeyError", variant: "InvalidInput" } });
    const blank = await generate(ada, { name: "   " });
    expect(errorOf(blank)).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    const unknownScope = await ada.rpc("apikeyservice.generate_personal", {
      name: "scripts",
      password: PASSWORD,
      mcp_scope: "admin",
    });
    expect(unknownScope.error?.code).toBe(-32602);
    expect(await count(t, "api_key")).toBe(0);
  });

  test("an API key cannot mint keys (SessionRequired)", async () => {
    const key = (await generated(ada)).api_key;
    const r = await withKey(key, "apikeyservice.generate_personal", { name: "more", password: PASSWORD });
    expect(r.error).toMatchObject({ code: -32002, data: { type: "ApiKeyError", variant: "SessionRequired" } });
    expect(await count(t, "api_key")).toBe(1);
  });
});

describe("list_personal", () => {
  test("lists the caller's own keys newest first, revoked and expired included, never key material", async () => {
    const first = await generated(ada, { name: "first" });
    t.clock.advance(1);
    const second = await generated(ada, { name: "second" });
    await ada.callOk("apikeyservice.revoke", { key_id: first.key_id, password: PASSWORD });
    const bob = await t.register("bob@example.org");
    await generated(bob, { name: "bob's" });
    const list = await ada.callOk("apikeyservice.list_personal");
    expect(list.items.map((k) => k.name)).toEqual(["second", "first"]);
    expect(list.items[1]).toMatchObject({ key_id: first.key_id, is_active: false });
    expect(list.items[0]).toMatchObject({ key_id: second.key_id, is_active: true, last_used_at: null });
    expect(JSON.stringify(list)).not.toMatch(/api_key|key_hash|fz_u_[A-Za-z0-9]/);
  });

  test("an expired key lists as inactive and authenticates as KeyExpired", async () => {
    const key = (await generated(ada)).api_key;
    t.clock.advance(365 * 86_400);
    const r = await withKey(key, "authservice.me");
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "KeyExpired" } });
    const login = await t.rpc("authservice.login", { email: "ada@example.org", password: PASSWORD });
    const list = await t.rpc(
      "apikeyservice.list_personal",
      {},
      { authorization: `Bearer ${login.result.access_token}` },
    );
    expect(list.result.items[0].is_active).toBe(false);
  });

  test("last_used_at records when the key was last used", async () => {
    const { api_key, key_id } = await generated(ada);
    t.clock.advance(120);
    await withKey(api_key, "authservice.me");
    const row = (await sql(t, `select last_used_at from "api_key" where sid = ?`, [key_id]))[0];
    expect(new Date(row?.last_used_at).toISOString()).toBe(t.clock.now().toISOString());
  });
});

describe("revoke", () => {
  test("concurrent revocations of one key: one revokes, the others answer already_revoked; one revoked_at", async () => {
    const { key_id } = await generated(ada);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => ada.callOk("apikeyservice.revoke", { key_id, password: PASSWORD })),
    );
    expect(answers.filter((a) => !a.already_revoked)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.revoked_at)).size).toBe(1);
    const [row] = await sql(t, `select is_active, revoked_at from "api_key" where sid = ?`, [key_id]);
    expect(row.is_active).toBe(false);
    expect(new Date(row.revoked_at).toISOString()).toBe(answers[0]!.revoked_at);
  });

  test("revoke takes effect at once, is idempotent and is audited as revoke_api_key each time", async () => {
    const { api_key, key_id } = await generated(ada);
    const revoked = await ada.callOk("apikeyservice.revoke", { key_id, password: PASSWORD });
    expect(revoked).toEqual({
      key_id,
      is_active: false,
      revoked_at: t.clock.now().toISOString(),
      already_revoked: false,
    });
    expect((await withKey(api_key, "authservice.me")).error).toMatchObject({
      code: -32001,
      data: { variant: "KeyRevoked" },
    });
    t.clock.advance(10);
    const again = await ada.callOk("apikeyservice.revoke", { key_id, password: PASSWORD });
    expect(again).toEqual({ ...revoked, already_revoked: true });
    const rows = await auditRows("revoke_api_key");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      subject_id: ada.userId,
      target_ref: key_id,
      target_type: "api_key",
      allowed: true,
    });
  });

  test("revoking another user's key is NotFound, audited as denied, and the key keeps working", async () => {
    const bob = await t.register("bob@example.org");
    const { api_key, key_id } = await generated(bob);
    const r = await ada.rpc("apikeyservice.revoke", { key_id, password: PASSWORD });
    expect(r.error).toMatchObject({ code: -32003, data: { type: "ApiKeyError", variant: "NotFound" } });
    expect((await withKey(api_key, "authservice.me")).result.user_id).toBe(bob.userId);
    expect(await auditRows("revoke_api_key")).toEqual([
      expect.objectContaining({ subject_id: ada.userId, target_ref: key_id, allowed: false }),
    ]);
  });

  test("a wrong password is WrongPassword, audited as denied, and the key keeps working", async () => {
    const { api_key, key_id } = await generated(ada);
    const r = await ada.rpc("apikeyservice.revoke", { key_id, password: "not my password 1" });
    expect(r.error).toMatchObject({ code: -32002, data: { type: "ApiKeyError", variant: "WrongPassword" } });
    expect((await withKey(api_key, "authservice.me")).result.user_id).toBe(ada.userId);
    expect((await auditRows("revoke_api_key"))[0]).toMatchObject({ allowed: false });
  });
});

describe("rotate", () => {
  test("rotate issues a new key with the same name and policy and revokes the old one, audited", async () => {
    const old = await generated(ada, { mcp_scope: "readwrite", max_calls_per_day: 7, blocked_tool_patterns: "x_*" });
    t.clock.advance(600);
    const rotated = await ada.callOk("apikeyservice.rotate", { key_id: old.key_id, password: PASSWORD });
    const { key_id: _a, api_key: _b, expires_at: _c, created_at: _d, last_four: _e, ...flags } = old;
    expect(rotated).toMatchObject(flags);
    expect(rotated.key_id).not.toBe(old.key_id);
    // The new key's own last four characters (shown to tell keys apart), never the old key's.
    expect(old.last_four).toBe(old.api_key.slice(-4));
    expect(rotated.last_four).toBe(rotated.api_key.slice(-4));
    expect(rotated.expires_at).toBe(new Date(t.clock.now().getTime() + 365 * 86_400_000).toISOString());
    expect((await withKey(old.api_key, "authservice.me")).error).toMatchObject({ data: { variant: "KeyRevoked" } });
    expect((await withKey(rotated.api_key, "authservice.me")).result.user_id).toBe(ada.userId);
    expect(await auditRows("rotate_api_key")).toEqual([
      expect.objectContaining({ target_ref: old.key_id, target_type: "api_key", allowed: true }),
    ]);
  });

  test("rotating a revoked key is InvalidState, audited as denied, and issues nothing", async () => {
    const { key_id } = await generated(ada);
    await ada.rpc("apikeyservice.revoke", { key_id, password: PASSWORD });
    const r = await ada.rpc("apikeyservice.rotate", { key_id, password: PASSWORD });
    expect(r.error).toMatchObject({ code: -32005, data: { type: "ApiKeyError", variant: "InvalidState" } });
    expect(await count(t, "api_key")).toBe(1);
    expect((await auditRows("rotate_api_key"))[0]).toMatchObject({ allowed: false });
  });

  test("rotating another user's key is NotFound and changes nothing", async () => {
    const bob = await t.register("bob@example.org");
    const { api_key, key_id } = await generated(bob);
    const r = await ada.rpc("apikeyservice.rotate", { key_id, password: PASSWORD });
    expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    expect((await withKey(api_key, "authservice.me")).result.user_id).toBe(bob.userId);
    expect(await count(t, "api_key")).toBe(1);
  });
});

describe("update_personal", () => {
  test("changes only the named fields; mcp_scope null removes MCP access", async () => {
    const { key_id } = await generated(ada, { mcp_scope: "read" });
    const r = await ada.rpc("apikeyservice.update_personal", {
      key_id,
      password: PASSWORD,
      name: "renamed",
      mcp_scope: null,
      daily_spending_limit: 0,
    });
    expect(r.result).toMatchObject({
      key_id,
      name: "renamed",
      mcp_scope: null,
      daily_spending_limit: 0,
      max_calls_per_hour: 60,
    });
    const listed = await ada.rpc("apikeyservice.list_personal", {});
    expect(listed.result.items[0]).toMatchObject({ name: "renamed", mcp_scope: null, daily_spending_limit: 0 });
  });

  test("a call naming nothing to change, or a bad pattern, is InvalidInput and changes nothing", async () => {
    const { key_id } = await generated(ada);
    const before = await sql(t, `select * from "api_key"`);
    const nothing = await ada.rpc("apikeyservice.update_personal", { key_id, password: PASSWORD });
    expect(nothing.error).toMatchObject({ code: -32006, data: { type: "ApiKeyError", variant: "InvalidInput" } });
    const bad = await ada.rpc("apikeyservice.update_personal", {
      key_id,
      password: PASSWORD,
      allowed_tool_patterns: "a b",
    });
    expect(errorOf(bad)).toMatchObject({ code: -32006, data: { variant: "InvalidInput" } });
    expect(await sql(t, `select * from "api_key"`)).toEqual(before);
  });

  test("needs the account password like generate, rotate and revoke: none is PasswordRequired, a wrong one WrongPassword", async () => {
    const { key_id } = await generated(ada, { mcp_scope: "read" });
    const before = await sql(t, `select * from "api_key"`);
    const none = await ada.rpc("apikeyservice.update_personal", { key_id, mcp_scope: "readwrite" });
    expect(none.error).toMatchObject({ code: -32002, data: { variant: "PasswordRequired" } });
    const wrong = await ada.rpc("apikeyservice.update_personal", {
      key_id,
      password: "not it 12345",
      mcp_scope: "readwrite",
    });
    expect(wrong.error).toMatchObject({ code: -32002, data: { variant: "WrongPassword" } });
    expect(await sql(t, `select * from "api_key"`)).toEqual(before);
  });

  test("a revoked key is InvalidState; another user's key NotFound", async () => {
    const { key_id } = await generated(ada);
    await ada.rpc("apikeyservice.revoke", { key_id, password: PASSWORD });
    const revoked = await ada.rpc("apikeyservice.update_personal", { key_id, password: PASSWORD, name: "x" });
    expect(revoked.error).toMatchObject({ code: -32005, data: { variant: "InvalidState" } });
    const bob = await t.register("bob@example.org");
    const other = await bob.rpc("apikeyservice.update_personal", { key_id, password: PASSWORD, name: "x" });
    expect(other.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
  });
});

describe("keys that do not authenticate", () => {
  test("an unknown key and a key with a foreign prefix are InvalidCredentials", async () => {
    const key = (await generated(ada)).api_key;
    for (const bad of [`fz_u_${"A".repeat(43)}`, key.replace("fz_u_", "fz_x_"), key.replace("fz_u_", "")]) {
      const r = await withKey(bad, "authservice.me");
      expect(r.error).toMatchObject({ code: -32001, data: { type: "AuthError", variant: "InvalidCredentials" } });
    }
  });

  test("an administrator's key carries only user rights", async () => {
    const admin = await t.admin();
    const key = (await generated(admin)).api_key;
    const r = await withKey(key, "partnerservice.list_partners");
    expect(r.error).toMatchObject({ code: -32002, data: { type: "PartnerError", variant: "AdminOnly" } });
  });
});

describe("the assistant's key", () => {
  test("mint_assistant_key gives a read-only system key, hidden from the list, replaced on the next mint", async () => {
    const first = await ada.rpc("apikeyservice.mint_assistant_key", {});
    expect(first.result).toMatchObject({ name: "AI assistant", prefix: "fz_u_", mcp_scope: "read" });
    expect((await withKey(first.result.api_key, "authservice.me")).result.user_id).toBe(ada.userId);
    expect((await ada.rpc("apikeyservice.list_personal", {})).result.items).toEqual([]);
    const second = await ada.rpc("apikeyservice.mint_assistant_key", {});
    expect((await withKey(first.result.api_key, "authservice.me")).error).toMatchObject({
      data: { variant: "KeyRevoked" },
    });
    expect((await withKey(second.result.api_key, "authservice.me")).result.user_id).toBe(ada.userId);
    expect(await count(t, "api_key", "is_system_minted")).toBe(2);
    // The replaced key's revocation is audited as any revocation (issue 29 item 16).
    expect(
      await sql(t, "select target_ref, context::jsonb as context from user_audit_log where action = 'revoke_api_key'"),
    ).toEqual([
      {
        target_ref: first.result.key_id,
        context: { reason: "replaced by a new assistant key", method: "apikeyservice.mint_assistant_key" },
      },
    ]);
  });

  test("generic CRUD does not show the assistant's key to its owner or an administrator (issue 29 item 4)", async () => {
    const { key_id } = (await ada.rpc("apikeyservice.mint_assistant_key", {})).result;
    const personal = (await ada.rpc("apikeyservice.generate_personal", { name: "script", password: PASSWORD })).result;
    const admin = await t.admin();
    for (const who of [ada, admin]) {
      const listed = (await who.rpc("apikey.list", {})).result.sids as string[];
      expect(listed).not.toContain(key_id);
      const found = await who.rpc("apikey.find", { query: JSON.stringify({ user_id: ada.userId }) });
      expect(found.result.items.map((k: { sid: string }) => k.sid)).not.toContain(key_id);
      const byName = await who.rpc("apikey.find", { query: JSON.stringify({ name: "AI assistant" }) });
      expect(byName.result.items).toEqual([]);
      expect((await who.rpc("apikey.get", { sid: key_id })).error).toMatchObject({ code: -32003 });
    }
    expect((await ada.rpc("apikey.list", {})).result.sids).toContain(personal.key_id);
  });

  test("the assistant's key cannot be revoked, rotated or changed through the personal-key operations", async () => {
    const { key_id } = (await ada.rpc("apikeyservice.mint_assistant_key", {})).result;
    for (const [method, params] of [
      ["apikeyservice.revoke", { key_id, password: PASSWORD }],
      ["apikeyservice.rotate", { key_id, password: PASSWORD }],
      ["apikeyservice.update_personal", { key_id, password: PASSWORD, name: "mine now" }],
    ] as const) {
      const r = await ada.rpc(method, params);
      expect(r.error).toMatchObject({ code: -32003, data: { variant: "NotFound" } });
    }
  });
});
