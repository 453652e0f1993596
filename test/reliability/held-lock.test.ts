import type { MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ENTITIES } from "../../generated/entities.ts";
import { type App, createApp } from "../../src/app/create-app.ts";
import { closeOrm, migrate, openOrm } from "../../src/db/orm.ts";
import { truncateAll } from "../../src/db/reset.ts";
import { DEFAULT_TIMEOUTS } from "../../src/db/timeouts.ts";
import { PASSWORD, testConfig } from "../support/app.ts";
import { TestClock } from "../support/clock.ts";
import { usingPostgres, workerSchema } from "../support/database.ts";

/**
 * Issue 31 item 2: one row lock held outside the server (psql's `select ... for update`) made every call on that row
 * wait as long as the lock was held, and took the write slots from unrelated calls, with no timeout. With
 * lock_timeout the blocked calls answer -32011 DatabaseBusy at once, nothing written, and other users' writes pass.
 * PostgreSQL only: PGlite has one connection in the process, so no other session can hold a lock.
 */
const LOCK_MS = 300;

describe.runIf(usingPostgres)("a row lock held by another session (PostgreSQL)", () => {
  const url = process.env["DATABASE_URL"] ?? "";
  const schema = `${workerSchema()}_locks`;
  let orm: MikroORM;
  let app: App;
  let holder: pg.Client;
  let nextId = 1;

  const call = async (method: string, params: unknown, token?: string) => {
    const res = await app.fetch(
      new Request("http://test/rpc", {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
      }),
    );
    return (await res.json()) as { result?: any; error?: { code: number; message: string; data?: any } };
  };

  beforeAll(async () => {
    orm = await openOrm({
      entities: ENTITIES,
      databaseUrl: url,
      schema,
      timeouts: { ...DEFAULT_TIMEOUTS, lockMs: LOCK_MS },
    });
    await migrate(orm);
    await truncateAll(orm);
    app = await createApp(testConfig(new TestClock()), { orm });
    holder = new pg.Client({ connectionString: url });
    await holder.connect();
  });

  afterAll(async () => {
    await holder?.query("rollback").catch(() => undefined);
    await holder?.end();
    await app?.close();
    await closeOrm(orm);
  });

  test("calls on the locked row answer DatabaseBusy within the lock timeout; nothing written; others pass", async () => {
    const locked = await call("authservice.register", { email: "locked@example.org", password: PASSWORD });
    const token = locked.result.access_token as string;
    await holder.query("begin");
    await holder.query(`select * from "${schema}"."user" where sid = $1 for update`, [locked.result.user_id]);

    const started = Date.now();
    const blocked = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(
          "authservice.change_password",
          { old_password: PASSWORD, new_password: "another horse battery staple 43" },
          token,
        ),
      ),
    );
    const other = await call("authservice.register", { email: "other@example.org", password: PASSWORD });
    const waited = Date.now() - started;

    for (const reply of blocked) {
      expect(reply.error?.code).toBe(-32011);
      expect(reply.error?.data).toEqual({ type: "RpcError", variant: "DatabaseBusy", retry_after_s: 1 });
    }
    expect(other.result?.user_id).toBeTruthy();
    expect(waited).toBeLessThan(15_000); // without lock_timeout: as long as the lock is held (forever here)

    await holder.query("rollback");
    // Nothing of the refused calls was written: the old password still signs in.
    const login = await call("authservice.login", { email: "locked@example.org", password: PASSWORD });
    expect(login.result?.access_token).toBeTruthy();
  }, 60_000);
});
