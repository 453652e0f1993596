import { connect, createServer, type Server, type Socket } from "node:net";
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ENTITIES } from "../../generated/entities.ts";
import { type App, createApp } from "../../src/app/create-app.ts";
import { closeOrm, migrate, openOrm, writeSlots } from "../../src/db/orm.ts";
import { truncateAll } from "../../src/db/reset.ts";
import { DEFAULT_TIMEOUTS } from "../../src/db/timeouts.ts";
import { PASSWORD, testConfig } from "../support/app.ts";
import { TestClock } from "../support/clock.ts";
import { usingPostgres, workerSchema } from "../support/database.ts";

/**
 * Issue 31 item 3: connections that go silent (TCP up, no bytes: a failover, a dropped NAT entry) left every call on
 * them pending 150 s+ with no error while /health answered 200. Here the server reaches PostgreSQL through a TCP
 * proxy in the test that can stop passing bytes while keeping every socket open. PostgreSQL only.
 */
const STATEMENT_MS = 600;

/** A TCP proxy to PostgreSQL whose `freeze()` stops every byte both ways, sockets left open. */
class SilentProxy {
  private readonly sockets = new Set<Socket>();
  private frozen = false;
  readonly server: Server;

  constructor(target: URL) {
    this.server = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => undefined);
      }
      client.pipe(upstream);
      upstream.pipe(client);
      // After pipe(), which resumes its source: a connection opened while frozen stays silent too.
      if (this.frozen) for (const socket of [client, upstream]) socket.pause();
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return (this.server.address() as { port: number }).port;
  }

  freeze(): void {
    this.frozen = true;
    for (const socket of this.sockets) socket.pause();
  }

  thaw(): void {
    this.frozen = false;
    for (const socket of this.sockets) socket.resume();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe.runIf(usingPostgres)("a database that stops answering (PostgreSQL through a silent proxy)", () => {
  const url = new URL(process.env["DATABASE_URL"] ?? "postgres://localhost/test");
  const proxy = new SilentProxy(url);
  let orm: MikroORM;
  let app: App;
  let nextId = 1;

  const call = async (method: string, params: unknown) => {
    const res = await app.fetch(
      new Request("http://test/rpc", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
      }),
    );
    return (await res.json()) as { result?: any; error?: { code: number; message: string; data?: any } };
  };
  const probe = async (path: string) => {
    const res = await app.fetch(new Request(`http://test${path}`));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const started = Date.now();
    const value = await work();
    return { value, ms: Date.now() - started };
  };

  beforeAll(async () => {
    const port = await proxy.listen();
    const through = new URL(url);
    through.host = `127.0.0.1:${port}`;
    orm = await openOrm({
      entities: ENTITIES,
      databaseUrl: through.toString(),
      schema: `${workerSchema()}_silent`,
      timeouts: { ...DEFAULT_TIMEOUTS, statementMs: STATEMENT_MS, connectMs: 1_000, writeSlotWaitMs: 1_000 },
    });
    await migrate(orm);
    await truncateAll(orm);
    app = await createApp(testConfig(new TestClock()), { orm });
  });

  afterAll(async () => {
    proxy.thaw();
    await app?.close();
    if (orm) await closeOrm(orm);
    await proxy.close();
  });

  test("answering: health and ready are 200 and calls pass", async () => {
    expect(await probe("/health")).toEqual({ status: 200, body: { status: "ok", database: "up" } });
    expect(await probe("/ready")).toEqual({ status: 200, body: { status: "ready" } });
    expect(
      (await call("authservice.register", { email: "before@example.org", password: PASSWORD })).result,
    ).toBeTruthy();
  });

  test("silent: calls answer -32011 DatabaseUnavailable within their timeouts; health and ready 503 within 2 s", async () => {
    proxy.freeze();
    try {
      const calls = await timed(() =>
        Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            call("authservice.register", { email: `during${i}@example.org`, password: PASSWORD }),
          ),
        ),
      );
      for (const reply of calls.value) {
        expect(reply.error?.code, JSON.stringify(reply)).toBe(-32011);
        expect(["DatabaseUnavailable", "DatabaseBusy"]).toContain(reply.error?.data?.variant);
      }
      // The old server: pending 150 s and more. Statement, query and slot timeouts bound every call.
      expect(calls.ms).toBeLessThan(15_000);
      const health = await timed(() => probe("/health"));
      // "down" when the query timeout answered first, "not_answering" when the check's own deadline did.
      expect(health.value).toEqual({
        status: 503,
        body: { status: "degraded", database: expect.stringMatching(/^(down|not_answering)$/) },
      });
      expect(health.ms).toBeLessThan(3_500);
      const ready = await timed(() => probe("/ready"));
      expect(ready.value.status).toBe(503);
      expect(ready.value.body).toMatchObject({ status: "not_ready" });
      expect(ready.ms).toBeLessThan(3_500);
    } finally {
      proxy.thaw();
    }
  }, 60_000);

  test("answering again: the pool recovers, calls pass and nothing of the refused calls was written", async () => {
    let ready = await probe("/ready");
    for (let i = 0; i < 20 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      ready = await probe("/ready");
    }
    expect(ready.status).toBe(200);
    expect(
      (await call("authservice.register", { email: "after@example.org", password: PASSWORD })).result,
    ).toBeTruthy();
    const login = await call("authservice.login", { email: "during0@example.org", password: PASSWORD });
    expect(login.error?.code).toBe(-32001);
  }, 30_000);

  test("every write slot held (a stuck lock, a flood): ready says so within 2 s while health stays 200", async () => {
    const slots = writeSlots(orm);
    if (!slots) throw new Error("PostgreSQL has write slots");
    const held = await Promise.all(Array.from({ length: slots.size }, () => slots.acquire()));
    try {
      const ready = await timed(() => probe("/ready"));
      expect(ready.value).toEqual({
        status: 503,
        body: { status: "not_ready", database: "writes_waiting", queued: 0 },
      });
      expect(ready.ms).toBeLessThan(3_500);
      expect((await probe("/health")).status).toBe(200);
    } finally {
      for (const release of held) release();
    }
    expect((await probe("/ready")).status).toBe(200);
  }, 30_000);
});
