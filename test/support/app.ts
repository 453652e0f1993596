import pino from "pino";
import { type App, createApp } from "../../src/app/create-app.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { TestClock } from "./clock.ts";
import { resetDatabase } from "./database.ts";

export const TEST_ARGON2 = { memoryCost: 256, timeCost: 1, parallelism: 1 };

export interface RpcReply {
  status: number;
  body: any;
  result: any;
  error: { code: number; message: string; data?: any } | undefined;
}

export interface Client {
  userId: string;
  email: string;
  token: string;
  rpc(method: string, params?: unknown): Promise<RpcReply>;
}

export interface TestApp {
  app: App;
  clock: TestClock;
  config: Config;
  /** POST a JSON-RPC call (or any body) to a path with the given headers. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<RpcReply>;
  rpc(method: string, params?: unknown, headers?: Record<string, string>): Promise<RpcReply>;
  register(email: string, password?: string): Promise<Client>;
  admin(email?: string): Promise<Client>;
  close(): Promise<void>;
}

export const PASSWORD = "correct horse battery staple 42";

let nextId = 1;

export function testConfig(clock: TestClock, overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {},
    {
      argon2: TEST_ARGON2,
      validateResults: true,
      logLevel: "silent",
      clock: clock.now,
      ...overrides,
    },
  );
}

/** A fresh app on the worker's shared database with every table emptied. */
let previous: App | null = null;

/**
 * A fresh app on the worker's shared database with every table emptied. The previous test app of this worker is
 * closed first: an app holds resources of its own (on PostgreSQL a LISTEN connection, timers), and tests that
 * start one per test would otherwise exhaust the server's connections.
 */
export async function startTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  await previous?.close().catch(() => undefined);
  previous = null;
  const orm = await resetDatabase();
  const clock = new TestClock();
  const config = testConfig(clock, overrides);
  const app = await createApp(config, { orm, log: pino({ level: "silent" }) });
  previous = app;

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<RpcReply> => {
    const res = await app.fetch(
      new Request(`http://test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    return { status: res.status, body: parsed, result: parsed?.result, error: parsed?.error };
  };
  const rpc = (method: string, params: unknown = {}, headers: Record<string, string> = {}) =>
    post("/rpc", { jsonrpc: "2.0", id: nextId++, method, params }, headers);

  const client = (userId: string, email: string, token: string): Client => ({
    userId,
    email,
    token,
    rpc: (method, params = {}) => rpc(method, params, { authorization: `Bearer ${token}` }),
  });

  const register = async (email: string, password = PASSWORD): Promise<Client> => {
    const r = await rpc("authservice.register", { email, password });
    if (!r.result) throw new Error(`register failed: ${JSON.stringify(r.body)}`);
    return client(r.result.user_id, email, r.result.access_token);
  };

  const admin = async (email = "admin@example.org"): Promise<Client> => {
    const { createFirstAdmin } = await import("../../src/auth/admin-bootstrap.ts");
    await createFirstAdmin(orm.em.fork(), config, email, PASSWORD);
    const r = await rpc("authservice.login", { email, password: PASSWORD });
    if (!r.result) throw new Error(`admin login failed: ${JSON.stringify(r.body)}`);
    return client(r.result.user_id, email, r.result.access_token);
  };

  const close = async () => {
    if (previous === app) previous = null;
    await app.close();
  };
  return { app, clock, config, post, rpc, register, admin, close };
}
