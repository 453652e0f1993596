import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { KeyCache } from "../../src/auth/key-cache.ts";
import { sha256Hex } from "../../src/auth/tokens.ts";
import { listenerApplicationName } from "../../src/db/notifications.ts";
import { closeInstances, type Instance, instancesOnOneSchema } from "../support/app.ts";
import { insertApiKey, sql } from "../support/helpers.ts";
import { insertRow } from "../support/rows.ts";

const url = process.env["DATABASE_URL"];

/** Two app instances, each with its own ORM, KeyCache and LISTEN connection, on one PostgreSQL schema. */
describe.skipIf(!url)("API key cache across two instances on one PostgreSQL (needs DATABASE_URL)", () => {
  let instances: Instance[] = [];
  let userId = "";

  beforeAll(async () => {
    instances = await instancesOnOneSchema(url ?? "", "key_cache");
    const user = await insertRow(instances[0]!.orm, "User", {
      email: "keys@example.org",
      password_hash: "x",
      roles: [],
    });
    userId = String(user["sid"]);
  });
  afterAll(() => closeInstances(instances));

  const pair = () => instances as [Instance, Instance];
  const cacheOf = (i: Instance) => KeyCache.of(i.orm.em) as KeyCache;
  const me = async (i: Instance, key: string) => {
    const res = await i.app.fetch(
      new Request("http://test/rpc", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "authservice.me", params: {} }),
      }),
    );
    return (await res.json()) as {
      result?: { user_id: string };
      error?: { code: number; data?: { variant?: string } };
    };
  };
  /** Calls until `done` holds or `ms` pass; the last reply and how long it took. */
  const poll = async (
    call: () => ReturnType<typeof me>,
    done: (r: Awaited<ReturnType<typeof me>>) => boolean,
    ms: number,
  ) => {
    const started = Date.now();
    let reply = await call();
    while (!done(reply) && Date.now() - started < ms) {
      // A call answered from the cache does no I/O: let the event loop read the listener's socket between calls.
      await new Promise((resolve) => setTimeout(resolve, 5));
      reply = await call();
    }
    return { reply, ms: Date.now() - started };
  };
  const cachedOn = async (i: Instance, key: string) => {
    const { reply } = await poll(
      () => me(i, key),
      () => cacheOf(i).get(sha256Hex(key)) !== null,
      2000,
    );
    expect(reply.result?.user_id).toBe(userId);
    expect(cacheOf(i).get(sha256Hex(key))).not.toBeNull();
  };
  const waitFor = async (condition: () => boolean, ms: number) => {
    const until = Date.now() + ms;
    while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    return condition();
  };

  test("a key revoked through one instance is refused by the other within a second", async () => {
    const [one, two] = pair();
    const k = await insertApiKey(one.orm, userId);
    await cachedOn(two, k.key);
    await sql(one.orm, `update "api_key" set is_active = false where sid = ?`, [k.keyId]);
    const { reply, ms } = await poll(
      () => me(two, k.key),
      (r) => r.error?.data?.variant === "KeyRevoked",
      1000,
    );
    expect(reply.error).toMatchObject({ code: -32001, data: { variant: "KeyRevoked" } });
    expect(ms).toBeLessThan(1000);
  });

  test("while the listener is lost the cache is bypassed (a change is seen at once); it resumes on reconnect", async () => {
    const [, two] = pair();
    const k = await insertApiKey(two.orm, userId);
    const other = await insertApiKey(two.orm, userId);
    await cachedOn(two, k.key);
    await sql(two.orm, "select pg_terminate_backend(pid) from pg_stat_activity where application_name = ?", [
      listenerApplicationName(two.orm),
    ]);
    expect(await waitFor(() => !cacheOf(two).caching, 1000)).toBe(true);
    expect(cacheOf(two).size).toBe(0);
    // Triggers off: no notification at all, so only reading the row can refuse the key.
    await sql(
      two.orm,
      `begin; set local session_replication_role = replica; update "api_key" set is_active = false where sid = '${k.keyId}'; commit;`,
    );
    expect((await me(two, k.key)).error).toMatchObject({ code: -32001, data: { variant: "KeyRevoked" } });
    expect((await me(two, other.key)).result?.user_id).toBe(userId);
    expect(cacheOf(two).caching).toBe(false);
    expect(cacheOf(two).size).toBe(0);
    expect(await waitFor(() => cacheOf(two).caching, 5000)).toBe(true);
    await cachedOn(two, other.key);
  });
});
