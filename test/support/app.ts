import { Writable } from "node:stream";
import type { MikroORM } from "@mikro-orm/postgresql";
import pino from "pino";
import { ENTITIES } from "../../generated/entities.ts";
import type { MethodMap, MethodName } from "../../generated/methods.ts";
import { type App, createApp } from "../../src/app/create-app.ts";
import { createLogger } from "../../src/app/logging.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { closeOrm, migrate, openOrm } from "../../src/db/orm.ts";
import { truncateAll } from "../../src/db/reset.ts";
import { TestClock } from "./clock.ts";
import { resetDatabase, workerSchema } from "./database.ts";
import { observeResult } from "./reached.ts";

export const TEST_ARGON2 = { memoryCost: 256, timeCost: 1, parallelism: 1 };

/** A JSON-RPC error object as API.md shapes it. */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: any;
}

export interface RpcReply {
  status: number;
  body: any;
  result: any;
  error: RpcErrorBody | undefined;
}

type Spec<M extends MethodName> = MethodMap[M];

/** A method's params as a caller sends them: the caller-bound one (user_id, ...) may be left out, the server fills it. */
export type CallParams<M extends MethodName> = Omit<Spec<M>["params"], Spec<M>["callerBound"]> &
  Partial<Pick<Spec<M>["params"], Extract<Spec<M>["callerBound"], keyof Spec<M>["params"]>>>;

/** The params argument: optional when the method needs none. */
type ParamsArg<M extends MethodName> =
  Partial<CallParams<M>> extends CallParams<M> ? [params?: CallParams<M>] : [params: CallParams<M>];

/** A typed reply: narrow with `"error" in r`. */
export type CallReply<R> = { result: R } | { error: RpcErrorBody };

/** Calls by wire name with params and result typed from generated/methods.ts (the spec). */
export interface TypedCaller {
  call<M extends MethodName>(method: M, ...params: ParamsArg<M>): Promise<CallReply<Spec<M>["result"]>>;
  /** The result; an Error carrying the JSON reply when an error comes back. */
  callOk<M extends MethodName>(method: M, ...params: ParamsArg<M>): Promise<Spec<M>["result"]>;
}

export interface Client extends TypedCaller {
  userId: string;
  email: string;
  token: string;
  /** Untyped: any method, any params (malformed ones too); the whole HTTP reply. */
  rpc(method: string, params?: unknown): Promise<RpcReply>;
}

/** `call`/`callOk` here are anonymous (no credentials). */
export interface TestApp extends TypedCaller {
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

/** The typed pair over an untyped `rpc` (which carries the credentials, if any). */
export function typedCaller(rpc: (method: string, params?: unknown) => Promise<RpcReply>): TypedCaller {
  const reply = (method: string, r: RpcReply): CallReply<unknown> => {
    if (r.error) return { error: r.error };
    if (r.body && typeof r.body === "object" && "result" in r.body) return { result: r.result };
    throw new Error(`${method}: not a JSON-RPC reply (HTTP ${r.status}): ${JSON.stringify(r.body)}`);
  };
  const call = async (method: string, params: unknown = {}) => reply(method, await rpc(method, params));
  const callOk = async (method: string, params: unknown = {}) => {
    const r = await rpc(method, params);
    const typed = reply(method, r);
    if ("error" in typed) throw new Error(`${method} failed (HTTP ${r.status}): ${JSON.stringify(r.body)}`);
    return typed.result;
  };
  return { call, callOk } as TypedCaller;
}

export function testConfig(clock: TestClock, overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {},
    {
      argon2: TEST_ARGON2,
      validateResults: true,
      logLevel: "silent",
      clock: clock.now,
      contractTemplateSync: false,
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
    if (path === "/rpc" && parsed?.result !== undefined && typeof body === "object" && body && "method" in body) {
      observeResult(String((body as { method: unknown }).method), parsed.result);
    }
    return { status: res.status, body: parsed, result: parsed?.result, error: parsed?.error };
  };
  const rpc = (method: string, params: unknown = {}, headers: Record<string, string> = {}) =>
    post("/rpc", { jsonrpc: "2.0", id: nextId++, method, params }, headers);
  const anonymous = typedCaller(rpc);

  const client = (userId: string, email: string, token: string): Client => {
    const authed = (method: string, params: unknown = {}) => rpc(method, params, { authorization: `Bearer ${token}` });
    return { userId, email, token, rpc: authed, ...typedCaller(authed) };
  };

  const register = async (email: string, password = PASSWORD): Promise<Client> => {
    const r = await anonymous.callOk("authservice.register", { email, password });
    if (!("access_token" in r)) throw new Error(`register answered no session: ${JSON.stringify(r)}`);
    return client(r.user_id, email, r.access_token);
  };

  const admin = async (email = "admin@example.org"): Promise<Client> => {
    const { createFirstAdmin } = await import("../../src/auth/admin-bootstrap.ts");
    await createFirstAdmin(orm.em.fork(), config, email, PASSWORD);
    const r = await anonymous.callOk("authservice.login", { email, password: PASSWORD });
    if (!("access_token" in r)) throw new Error(`admin login asked for a second factor: ${JSON.stringify(r)}`);
    return client(r.user_id, email, r.access_token);
  };

  const close = async () => {
    if (previous === app) previous = null;
    await app.close();
  };
  return { app, clock, config, post, rpc, ...anonymous, register, admin, close };
}

export interface Instance {
  app: App;
  orm: MikroORM;
}

/**
 * `n` apps, each with its own ORM (its own connection pool), on one PostgreSQL schema of this worker
 * (`<worker>_<suffix>`, migrated and emptied first): the instances of one deployment. Close with closeInstances.
 */
export async function instancesOnOneSchema(databaseUrl: string, suffix: string, n = 2): Promise<Instance[]> {
  const schema = `${workerSchema()}_${suffix}`;
  const out: Instance[] = [];
  for (let i = 0; i < n; i++) {
    const orm = await openOrm({ entities: ENTITIES, databaseUrl, schema });
    if (i === 0) {
      await migrate(orm);
      await truncateAll(orm);
    }
    out.push({ app: await createApp(testConfig(new TestClock()), { orm }), orm });
  }
  return out;
}

export async function closeInstances(instances: Instance[]): Promise<void> {
  for (const { app, orm } of instances) {
    await app.close();
    await closeOrm(orm);
  }
}

/**
 * An app on a reset database whose log lines (info and up, the server's own logger with its redactions and error
 * serializer) are collected in `lines`, for tests of what reaches the log.
 */
export async function startLoggedApp(): Promise<{ app: App; lines: string[] }> {
  const orm = await resetDatabase();
  const config = testConfig(new TestClock(), { logLevel: "info" });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { app: await createApp(config, { orm, log: createLogger(config, sink) }), lines };
}
