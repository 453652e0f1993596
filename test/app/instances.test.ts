import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ENTITIES } from "../../generated/entities.ts";
import { type App, createApp } from "../../src/app/create-app.ts";
import { createHttpServer, listen } from "../../src/app/server.ts";
import { closeOrm, migrate, openOrm } from "../../src/db/orm.ts";
import { truncateAll } from "../../src/db/reset.ts";
import { PASSWORD, testConfig } from "../support/app.ts";
import { TestClock } from "../support/clock.ts";
import { workerSchema } from "../support/database.ts";

const url = process.env["DATABASE_URL"];

/** Two app instances, each with its own ORM and HTTP server, on one PostgreSQL schema. */
describe.skipIf(!url)("two instances on one PostgreSQL (needs DATABASE_URL)", () => {
  const servers: { app: App; orm: MikroORM; close: () => void; base: string }[] = [];

  beforeAll(async () => {
    const schema = `${workerSchema()}_pair`;
    for (let i = 0; i < 2; i++) {
      const orm = await openOrm({ entities: ENTITIES, databaseUrl: url, schema });
      if (i === 0) {
        await migrate(orm);
        await truncateAll(orm);
      }
      const app = await createApp(testConfig(new TestClock()), { orm });
      const server = createHttpServer(app);
      const port = await listen(server, 0, "127.0.0.1");
      servers.push({ app, orm, base: `http://127.0.0.1:${port}`, close: () => server.close() });
    }
  });

  afterAll(async () => {
    for (const s of servers) {
      s.close();
      await closeOrm(s.orm);
    }
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
