import { beforeEach, describe, expect, test } from "vitest";
import { RpcEndpoint } from "../../src/app/rpc-endpoint.ts";
import { KeyCache } from "../../src/auth/key-cache.ts";
import { sha256Hex } from "../../src/auth/tokens.ts";
import { resolveCallerNow } from "../../src/http/credentials.ts";
import { isPromiseLike } from "../../src/rpc/maybe-async.ts";
import { type Client, PASSWORD, type RpcReply, startTestApp, type TestApp } from "../support/app.ts";
import { usingPostgres } from "../support/database.ts";
import { insertApiKey, sql, type TestKey } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

/**
 * API key checks are cached per instance (src/auth/key-cache.ts) and dropped by database notifications: on PGlite
 * at once (the next call is refused), on PostgreSQL within a second (these tests poll for up to one); a change made
 * through the API (revoke, rotate, suspend) drops the key from the calling instance's cache at once on both.
 */
let t: TestApp;
let ada: Client;
beforeEach(async () => {
  t = await startTestApp();
  ada = await t.register("ada@example.org");
});

const cache = () => {
  const found = KeyCache.of(t.app.runtime.orm.em);
  if (!found) throw new Error("the app started no KeyCache");
  return found;
};
const me = (key: string) => t.rpc("authservice.me", {}, { "x-api-key": key });
const cached = (key: string) => cache().get(sha256Hex(key)) !== null;

/** Calls until the key is served from the cache (a notification of another test worker may clear it meanwhile). */
async function untilCached(key: string): Promise<RpcReply> {
  const until = Date.now() + 2000;
  for (;;) {
    const reply = await me(key);
    if (cached(key) || Date.now() > until) return reply;
  }
}

/**
 * The first reply of `call` that `refused` accepts: the first call on PGlite, polled for up to 1 s on PostgreSQL.
 * Between polls the event loop runs: a call answered from the cache does no I/O, so a loop of them would never let
 * the listener's socket be read (a server's requests come from sockets, so it never starves like that).
 */
async function refusedWithin(call: () => Promise<RpcReply>, refused: (r: RpcReply) => boolean): Promise<RpcReply> {
  const until = Date.now() + 1000;
  let reply = await call();
  while (usingPostgres && !refused(reply) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    reply = await call();
  }
  return reply;
}
const variantIs = (variant: string) => (r: RpcReply) => r.error?.data?.variant === variant;

async function cachedKeyOf(userId: string, overrides: Record<string, unknown> = {}): Promise<TestKey> {
  const key = await insertApiKey(t.app.runtime.orm, userId, overrides);
  expect((await untilCached(key.key)).result?.user_id).toBe(userId);
  expect(cached(key.key)).toBe(true);
  return key;
}

describe("a cached key", () => {
  test.skipIf(usingPostgres)("is answered from the cache: a change no trigger reports is not seen", async () => {
    const k = await cachedKeyOf(ada.userId);
    // Triggers off for this one transaction: the revocation is invisible to the cache, which proves it is used.
    await sql(
      t,
      `begin; set local session_replication_role = replica; update "api_key" set is_active = false where sid = '${k.keyId}'; commit;`,
    );
    expect((await me(k.key)).result?.user_id).toBe(ada.userId);
    await sql(t, `update "api_key" set is_active = false where sid = ?`, [k.keyId]);
    expect((await me(k.key)).error).toMatchObject({ code: -32001, data: { variant: "KeyRevoked" } });
  });

  test("revoked through the API is refused on the next call", async () => {
    const created = await ada.callOk("apikeyservice.generate_personal", { name: "scripts", password: PASSWORD });
    await untilCached(created.api_key);
    expect(cached(created.api_key)).toBe(true);
    await ada.callOk("apikeyservice.revoke", { key_id: created.key_id, password: PASSWORD });
    // At once, on both databases: the revoking call drops the key from its instance's cache (the notification
    // would reach this instance's listener only after the commit).
    expect((await me(created.api_key)).error).toMatchObject({ code: -32001, data: { variant: "KeyRevoked" } });
  });

  test("revoked by raw SQL is refused on the next call", async () => {
    const k = await cachedKeyOf(ada.userId);
    await sql(t, `update "api_key" set is_active = false, revoked_at = now() where sid = ?`, [k.keyId]);
    const r = await refusedWithin(() => me(k.key), variantIs("KeyRevoked"));
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "KeyRevoked" } });
  });

  test("deleted is refused on the next call as unknown", async () => {
    const k = await cachedKeyOf(ada.userId);
    await sql(t, `delete from "api_key" where sid = ?`, [k.keyId]);
    const r = await refusedWithin(() => me(k.key), variantIs("InvalidCredentials"));
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "InvalidCredentials" } });
  });

  test("rotated is refused on the next call and its successor works", async () => {
    const created = await ada.callOk("apikeyservice.generate_personal", { name: "scripts", password: PASSWORD });
    await untilCached(created.api_key);
    const rotated = await ada.callOk("apikeyservice.rotate", { key_id: created.key_id, password: PASSWORD });
    expect((await me(created.api_key)).error).toMatchObject({ code: -32001, data: { variant: "KeyRevoked" } });
    expect((await me(rotated.api_key)).result?.user_id).toBe(ada.userId);
  });

  test("of an owner an administrator suspends is refused at once", async () => {
    const bob = await t.register("bob@example.org");
    const k = await cachedKeyOf(bob.userId);
    const admin = await t.admin();
    await admin.callOk("adminservice.suspend_user", { user_id: bob.userId, reason: "fraud review" });
    expect((await me(k.key)).error).toMatchObject({ code: -32002, data: { type: "AuthError", variant: "Suspended" } });
  });

  test("of an owner suspended meanwhile is refused on the next call", async () => {
    const k = await cachedKeyOf(ada.userId);
    await sql(t, `update "user" set is_suspended = true, suspended_at = now() where sid = ?`, [ada.userId]);
    const r = await refusedWithin(() => me(k.key), variantIs("Suspended"));
    expect(r.error).toMatchObject({ code: -32002, data: { type: "AuthError", variant: "Suspended" } });
  });

  test("of a partner deactivated meanwhile is refused on the next call", async () => {
    const orm = t.app.runtime.orm;
    const wallet = await insertRow(orm, "User", { email: "wallet@example.org", password_hash: "x", roles: [] });
    const partner = await insertRow(orm, "PartnerConfiguration", {
      name: "Reseller",
      client_id: "reseller",
      client_secret_hash: "x",
      access_password_hash: "x",
      wallet_user_id: wallet["sid"],
      is_active: true,
    });
    const k = await cachedKeyOf(String(wallet["sid"]), { partner_id: partner["sid"], prefix: "fz_r_" });
    await sql(t, `update "partner_configuration" set is_active = false where sid = ?`, [partner["sid"]]);
    const r = await refusedWithin(() => me(k.key), variantIs("KeyRevoked"));
    expect(r.error).toMatchObject({ code: -32001, data: { variant: "KeyRevoked" } });
  });

  test("whose mcp_scope changes has the new scope on the next MCP request", async () => {
    const k = await cachedKeyOf(ada.userId, { mcp_scope: null });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "test", version: "1" } },
    };
    const mcp = () => t.post("/mcp", initialize, { "x-api-key": k.key, accept: "application/json, text/event-stream" });
    expect((await mcp()).status).toBe(403);
    await sql(t, `update "api_key" set mcp_scope = 'read' where sid = ?`, [k.keyId]);
    const r = await refusedWithin(mcp, (reply) => reply.status === 200);
    expect(r.status).toBe(200);
    expect(r.result.serverInfo.name).toBe("freezone-registry");
  });

  test("whose MCP policy changes through the API is dropped from both caches before the answer", async () => {
    const k = await cachedKeyOf(ada.userId);
    const policies = t.app.mcp.deps.policies;
    await policies.get(t.app.runtime.orm.em.fork(), k.keyId);
    expect(policies.holds(k.keyId)).toBe(true);
    // Synchronously, from the call that changes the key: no notification can have been delivered in between.
    cache().drop(`key:${k.keyId}`);
    expect(policies.holds(k.keyId)).toBe(false);
    expect(cached(k.key)).toBe(false);
  });

  test("that expires while cached is refused as KeyExpired on time", async () => {
    const k = await cachedKeyOf(ada.userId, { expires_at: new Date(t.clock.now().getTime() + 30_000) });
    t.clock.advance(29);
    expect((await me(k.key)).result?.user_id).toBe(ada.userId);
    t.clock.advance(1);
    expect((await me(k.key)).error).toMatchObject({ code: -32001, data: { variant: "KeyExpired" } });
  });

  test("stamps last_used_at at most once a minute, off the request", async () => {
    const lastUsed = async (keyId: string) =>
      new Date((await sql(t, `select last_used_at from "api_key" where sid = ?`, [keyId]))[0]?.last_used_at);
    const k = await cachedKeyOf(ada.userId);
    const first = t.clock.now().toISOString();
    expect((await lastUsed(k.keyId)).toISOString()).toBe(first);
    await untilCached(k.key);
    t.clock.advance(59);
    expect((await me(k.key)).result?.user_id).toBe(ada.userId);
    expect((await lastUsed(k.keyId)).toISOString()).toBe(first);
    t.clock.advance(1);
    await untilCached(k.key);
    const stamped = t.clock.now().toISOString();
    const until = Date.now() + 1000;
    while ((await lastUsed(k.keyId)).toISOString() !== stamped && Date.now() < until);
    expect((await lastUsed(k.keyId)).toISOString()).toBe(stamped);
  });
});

describe("a cached key is decided without waiting (issue 18)", () => {
  const at = (iso: string) => new Date(iso);
  const withKey = (apiKey: string) => ({ bearer: null, apiKey, both: false });

  test("resolveCallerNow: the caller of a cached key, its refusal on time, undefined when a row must be read", async () => {
    const em = t.app.runtime.orm.em;
    const uncached = await insertApiKey(t.app.runtime.orm, ada.userId, { mcp_scope: null });
    const k = await cachedKeyOf(ada.userId, { mcp_scope: null, expires_at: at("2027-01-01T00:00:00.000Z") });
    // No await from here on: a notification of another worker cannot empty the cache in between.
    expect(resolveCallerNow(em, withKey(k.key), at("2026-12-31T23:59:59.999Z"))).toMatchObject({
      userId: ada.userId,
      via: "api_key",
      apiKeyId: k.keyId,
    });
    expect(() => resolveCallerNow(em, withKey(k.key), at("2027-01-01T00:00:00.000Z"))).toThrow("API key expired");
    expect(resolveCallerNow(em, withKey(uncached.key), at("2026-12-31T00:00:00.000Z"))).toBeUndefined();
    expect(resolveCallerNow(em, { bearer: "fzs_session", apiKey: null, both: false }, new Date())).toBeUndefined();
    expect(resolveCallerNow(em, { bearer: null, apiKey: null, both: false }, new Date())).toBeNull();
    expect(() => resolveCallerNow(em, withKey("not_a_key"), new Date())).toThrow("invalid API key");
  });

  test("the endpoint answers a cached script key's read-only call in the same turn", async () => {
    const k = await cachedKeyOf(ada.userId, { mcp_scope: null });
    const endpoint = new RpcEndpoint(t.app.runtime, "all");
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "pricingservice.get_shareholder_fee_rate",
      params: { company_type: "startup_fzc", shareholder_count: 4 },
    });
    const info = { requestId: "key-1", ip: "127.0.0.1", userAgent: null, rawBody: body, headers: {} };
    const answer = endpoint.handle(info, withKey(k.key), (a) => a);
    expect(isPromiseLike(answer)).toBe(false);
    expect(JSON.parse((answer as { body: string }).body).result.shareholder_count).toBe(4);
  });
});
