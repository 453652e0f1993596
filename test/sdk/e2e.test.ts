import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type AuthResult,
  type AuthSession,
  createClient,
  type FreezoneClient,
  FreezoneRpcError,
  isMethodError,
  type SessionTokens,
} from "../../clients/ts/src/index.ts";
import { PASSWORD } from "../support/app.ts";
import { countingFetch, noSleep, type ServedApp, serveTestApp } from "./support.ts";

// The generated client (clients/ts) against the real server on an ephemeral port: every call below crosses HTTP.
let served: ServedApp;
let url: string;

beforeAll(async () => {
  served = await serveTestApp();
  url = `${served.base}/rpc`;
});
afterAll(() => served.close());

function session(result: AuthResult): AuthSession {
  if (!("access_token" in result)) throw new Error("a second factor was asked");
  return result;
}

/** The rejection of `promise`, which must be a FreezoneRpcError. */
async function failure(promise: Promise<unknown>): Promise<FreezoneRpcError> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(outcome instanceof FreezoneRpcError)) throw new Error(`expected a FreezoneRpcError, got ${String(outcome)}`);
  return outcome;
}

const residentData = (email: string) => ({
  email,
  first_name: "Ada",
  last_name: "Lovelace",
  phone: "+255 777 123 456",
});

describe("a client team's first hour, through the generated client", () => {
  let client: FreezoneClient;

  test("register, login, me: the session token goes as Authorization: Bearer", async () => {
    client = createClient({ url });
    const registered = await client.authservice.register({ email: "ada@example.org", password: PASSWORD });
    expect(session(registered).access_token).toMatch(/^fzs_/);
    const login = session(await client.authservice.login({ email: "ada@example.org", password: PASSWORD }));
    client.useSession(login);
    const me = await client.authservice.me();
    expect(me.email).toBe("ada@example.org");
    expect(me.user_id).toBe(login.user_id);
  });

  test("an anonymous call of a user method is refused with a typed error", async () => {
    const err = await failure(createClient({ url }).authservice.me());
    expect([err.code, err.type, err.variant, err.method]).toEqual([
      -32001,
      "AuthError",
      "MissingCredentials",
      "authservice.me",
    ]);
  });

  test("create a resident (user_id left out: the server binds it), then a refused second one", async () => {
    const resident = await client.residentservice.create({ data: residentData("ada@example.org") });
    expect(resident.resident_id).toMatch(/^FZ-\d{4}-RA\d{6}$/);
    expect(resident.status).toBe("pending");
    const err = await failure(client.residentservice.create({ data: residentData("ada@example.org") }));
    expect([err.code, err.type, err.variant]).toEqual([-32005, "ResidentError", "AlreadyExists"]);
    expect(isMethodError(err, "residentservice.create")).toBe(true);
    expect(isMethodError(err, "residentservice.get")).toBe(false);
    if (isMethodError(err, "residentservice.create")) {
      // Typed: the variants residentservice.create declares (and the common ones); a typo would not compile.
      const declared: boolean = err.variant === "AlreadyExists" || err.variant === "InvalidInput";
      expect(declared).toBe(true);
    }
  });

  test("mint a personal key and call with it as X-API-Key", async () => {
    const key = await client.apikeyservice.generate_personal({ name: "ci", password: PASSWORD });
    expect(key.api_key).toMatch(/^fz_u_/);
    const scripted = createClient({ url, credentials: { apiKey: key.api_key } });
    const me = await scripted.authservice.me();
    expect(me.email).toBe("ada@example.org");
    const listed = await scripted.residentservice.list({ page: 1, page_size: 20 });
    expect(listed.items.map((r) => r.email)).toEqual(["ada@example.org"]);
    const err = await failure(createClient({ url, credentials: { apiKey: `${key.api_key}x` } }).authservice.me());
    expect([err.code, err.variant]).toEqual([-32001, "InvalidCredentials"]);
  });

  test("a batch: one request, each entry settled and typed on its own", async () => {
    const counting = countingFetch();
    const batching = createClient({ url, fetch: counting.fetch, credentials: client.credentials()! });
    const [me, missing, residents] = await batching.batch((b) => [
      b.authservice.me(),
      b.residentservice.get({ resident_id: "FZ-2026-RA999999" }),
      b.residentservice.list({ page: 1, page_size: 20 }),
    ]);
    expect(counting.sent).toEqual(["authservice.me,residentservice.get,residentservice.list"]);
    expect(me.ok && me.result.email).toBe("ada@example.org");
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect([missing.error.code, missing.error.type, missing.error.variant]).toEqual([
        -32003,
        "ResidentError",
        "NotFound",
      ]);
      expect(missing.error.method).toBe("residentservice.get");
    }
    expect(residents.ok && residents.result.items.length).toBe(1);
  });
});

describe("session refresh", () => {
  test("an expired access token is refreshed once and the call sent again; the new tokens are handed out", async () => {
    const anonymous = createClient({ url });
    const first = session(await anonymous.authservice.register({ email: "grace@example.org", password: PASSWORD }));
    const refreshed: SessionTokens[] = [];
    const counting = countingFetch();
    const client = createClient({
      url,
      fetch: counting.fetch,
      credentials: { accessToken: first.access_token, refreshToken: first.refresh_token },
      onSessionRefreshed: (tokens) => refreshed.push(tokens),
    });
    served.t.clock.advance(3601); // access tokens live 1 hour, refresh tokens 30 days
    const me = await client.authservice.me();
    expect(me.email).toBe("grace@example.org");
    expect(counting.sent).toEqual(["authservice.me", "authservice.refresh_token", "authservice.me"]);
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]!.accessToken).not.toBe(first.access_token);
    expect(refreshed[0]!.refreshToken).not.toBe(first.refresh_token);
    expect(client.credentials()).toEqual(refreshed[0]);
    // The refresh replaced the session: the old access token is now refused outright (no second refresh tried).
    const staleFetch = countingFetch();
    const stale = createClient({
      url,
      fetch: staleFetch.fetch,
      credentials: { accessToken: first.access_token, refreshToken: first.refresh_token },
    });
    const err = await failure(stale.authservice.me());
    expect([err.code, err.type, err.variant, err.method]).toEqual([
      -32001,
      "AuthError",
      "InvalidCredentials",
      "authservice.me",
    ]);
    expect(staleFetch.sent).toEqual(["authservice.me"]);
  });

  test("without a refresh token the expiry surfaces as TokenExpired", async () => {
    const anonymous = createClient({ url });
    const s = session(await anonymous.authservice.register({ email: "hopper@example.org", password: PASSWORD }));
    served.t.clock.advance(3601);
    const err = await failure(createClient({ url, credentials: { accessToken: s.access_token } }).authservice.me());
    expect([err.code, err.type, err.variant]).toEqual([-32001, "AuthError", "TokenExpired"]);
  });

  test("concurrent calls that meet the expiry share one refresh", async () => {
    const anonymous = createClient({ url });
    const s = session(await anonymous.authservice.register({ email: "noether@example.org", password: PASSWORD }));
    const counting = countingFetch();
    const client = createClient({ url, fetch: counting.fetch });
    client.useSession(s);
    served.t.clock.advance(3601);
    const [a, b] = await Promise.all([client.authservice.me(), client.authservice.me()]);
    expect([a.email, b.email]).toEqual(["noether@example.org", "noether@example.org"]);
    expect(counting.sent.filter((m) => m === "authservice.refresh_token")).toHaveLength(1);
    expect(counting.sent).toHaveLength(5);
  });

  test("a refresh that fails surfaces as the refresh method's typed error", async () => {
    const anonymous = createClient({ url });
    const s = session(await anonymous.authservice.register({ email: "curie@example.org", password: PASSWORD }));
    served.t.clock.advance(3601);
    const client = createClient({ url, credentials: { accessToken: s.access_token, refreshToken: "fzr_not-a-token" } });
    const err = await failure(client.authservice.me());
    expect([err.code, err.type, err.variant, err.method]).toEqual([
      -32001,
      "AuthError",
      "InvalidCredentials",
      "authservice.refresh_token",
    ]);
  });

  test("entries of a batch refused for the expiry are sent again after one refresh", async () => {
    const anonymous = createClient({ url });
    const s = session(await anonymous.authservice.register({ email: "lamarr@example.org", password: PASSWORD }));
    const counting = countingFetch();
    const client = createClient({ url, fetch: counting.fetch });
    client.useSession(s);
    served.t.clock.advance(3601);
    const [a, b] = await client.batch((b) => [b.authservice.me(), b.residentservice.list({ page: 1, page_size: 20 })]);
    expect(a.ok && a.result.email).toBe("lamarr@example.org");
    expect(b.ok && b.result.items).toEqual([]);
    expect(counting.sent).toEqual([
      "authservice.me,residentservice.list",
      "authservice.refresh_token",
      "authservice.me,residentservice.list",
    ]);
  });
});

/** A new user's session, for a test that writes what one user may write once. */
async function freshSession(email: string): Promise<AuthSession> {
  return session(await createClient({ url }).authservice.register({ email, password: PASSWORD }));
}

describe("retries and cancellation", () => {
  let tokens: AuthSession;
  beforeAll(async () => {
    tokens = session(
      await createClient({ url }).authservice.register({ email: "retry@example.org", password: PASSWORD }),
    );
  });

  test("a read that meets a network failure is retried after a backoff", async () => {
    const counting = countingFetch(1);
    const delays: number[] = [];
    const client = createClient({ url, fetch: counting.fetch, sleep: noSleep(delays) });
    client.useSession(tokens);
    const me = await client.authservice.me();
    expect(me.email).toBe("retry@example.org");
    expect(counting.sent).toEqual(["authservice.me", "authservice.me"]);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(100);
    expect(delays[0]).toBeLessThanOrEqual(200);
  });

  test("a read gives up after the configured attempts with a typed NetworkError", async () => {
    const counting = countingFetch(5);
    const client = createClient({ url, fetch: counting.fetch, sleep: noSleep(), retry: { attempts: 3 } });
    client.useSession(tokens);
    const err = await failure(client.authservice.me());
    expect([err.code, err.type, err.variant]).toEqual([-32099, "TransportError", "NetworkError"]);
    expect(counting.sent).toHaveLength(3);
  });

  test("a write whose answer was lost is retried with its Idempotency-Key and runs once", async () => {
    const counting = countingFetch(0, 1);
    const delays: number[] = [];
    const client = createClient({ url, fetch: counting.fetch, sleep: noSleep(delays) });
    client.useSession(await freshSession("lost@example.org"));
    const created = await client.residentservice.create({ data: residentData("retry@example.org") });
    expect(counting.sent).toEqual(["residentservice.create", "residentservice.create"]);
    // One key, on both attempts: a UUID made by the client.
    expect(counting.keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(counting.keys[1]).toBe(counting.keys[0]);
    expect(delays).toHaveLength(1);
    // The first attempt ran; the retry answered its result and created nothing more.
    const listed = await client.residentservice.list({ page: 1, page_size: 20 });
    expect(listed.items.map((r) => r.resident_id)).toEqual([created.resident_id]);
    // Reads carry no key; each write gets its own (this one is refused: one personal resident per user).
    await failure(client.residentservice.create({ data: residentData("retry2@example.org") }));
    expect(counting.keys[2]).toBeNull();
    expect(counting.keys[3]).toMatch(/^[0-9a-f-]{36}$/);
    expect(counting.keys[3]).not.toBe(counting.keys[0]);
  });

  test("a key of the caller's own survives a restart of the client: the same write is answered, not run", async () => {
    const key = "order-7f3a-resident";
    const own = await freshSession("restart@example.org");
    const first = createClient({ url });
    first.useSession(own);
    const created = await first.residentservice.create(
      { data: residentData("restart@example.org") },
      { idempotencyKey: key },
    );
    const restarted = createClient({ url });
    restarted.useSession(own);
    const again = await restarted.residentservice.create(
      { data: residentData("restart@example.org") },
      { idempotencyKey: key },
    );
    expect(again).toEqual(created);
    const other = await failure(
      restarted.residentservice.create({ data: residentData("other@example.org") }, { idempotencyKey: key }),
    );
    expect([other.code, other.variant]).toEqual([-32005, "IdempotencyKeyReused"]);
  });

  test("an aborted signal rejects the call with the signal's reason and sends nothing", async () => {
    const counting = countingFetch();
    const client = createClient({ url, fetch: counting.fetch });
    client.useSession(tokens);
    const controller = new AbortController();
    controller.abort(new Error("user left the page"));
    await expect(client.authservice.me(undefined, { signal: controller.signal })).rejects.toThrow("user left the page");
    expect(counting.sent).toEqual(["authservice.me"]); // fetch saw the aborted signal and refused at once
  });

  test("an abort while a read fails stops it: no retry", async () => {
    const controller = new AbortController();
    const sent: string[] = [];
    const failing = (async () => {
      sent.push("authservice.me");
      controller.abort(new Error("cancelled"));
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    const client = createClient({ url, fetch: failing, credentials: { accessToken: tokens.access_token } });
    await expect(client.authservice.me(undefined, { signal: controller.signal })).rejects.toThrow("cancelled");
    expect(sent).toEqual(["authservice.me"]);
  });
});
