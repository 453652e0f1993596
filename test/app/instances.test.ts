import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { closeInstances, type Instance, instancesOnOneSchema, PASSWORD } from "../support/app.ts";

const url = process.env["DATABASE_URL"];

/** Two app instances, each with its own ORM and HTTP server, on one PostgreSQL schema. */
describe.skipIf(!url)("two instances on one PostgreSQL (needs DATABASE_URL)", () => {
  let instances: Instance[] = [];
  const servers: { base: string; close: () => void }[] = [];

  beforeAll(async () => {
    instances = await instancesOnOneSchema(url ?? "", "pair");
    for (const { app } of instances) {
      const server = createHttpServer(app);
      const port = await listen(server, 0, "127.0.0.1");
      servers.push({ base: `http://127.0.0.1:${port}`, close: () => server.close() });
    }
  });

  afterAll(async () => {
    for (const s of servers) s.close();
    await closeInstances(instances);
  });

  const call = async (base: string, method: string, params: unknown, token?: string) => {
    const res = await fetch(`${base}/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await res.json()) as { result?: any; error?: any };
  };

  test("a session made on one instance works on the other", async () => {
    const [one, two] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const reg = await call(one.base, "authservice.register", { email: "pair@example.org", password: PASSWORD });
    expect(reg.error).toBeUndefined();
    const me = await call(two.base, "authservice.me", {}, reg.result.access_token);
    expect(me.result).toMatchObject({ user_id: reg.result.user_id, email: "pair@example.org" });
    const login = await call(two.base, "authservice.login", { email: "pair@example.org", password: PASSWORD });
    const meAgain = await call(one.base, "authservice.me", {}, login.result.access_token);
    expect(meAgain.result.user_id).toBe(reg.result.user_id);
  });
});
