import type { MikroORM } from "@mikro-orm/postgresql";
import { type Context, Hono } from "hono";
import pino, { type Logger } from "pino";
import { CONTEXT, DOMAINS } from "../../generated/policy.ts";
import { ensureAdminFromConfig } from "../auth/admin-bootstrap.ts";
import type { Config } from "../config.ts";
import { openDatabase } from "../db/database.ts";
import { closeOrm } from "../db/orm.ts";
import { type McpEndpoint, mountMcp } from "../mcp/endpoint.ts";
import { readCredentials } from "./credentials.ts";
import { newRequestId, RpcEndpoint } from "./rpc-endpoint.ts";
import { createRegistry, loadOpenrpcDocuments, type Runtime } from "./runtime.ts";

export interface App {
  hono: Hono;
  runtime: Runtime;
  mcp: McpEndpoint;
  fetch: (request: Request) => Promise<Response>;
  close(): Promise<void>;
}

export interface AppOptions {
  /** An already open and migrated ORM (tests share one per worker); otherwise one is opened from config. */
  orm?: MikroORM;
  log?: Logger;
}

/** The socket's address; X-Forwarded-For only behind a proxy we were told to trust (else it is spoofable). */
function clientAddress(c: Context, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header("x-forwarded-for")?.split(",")[0]?.trim() : undefined;
  if (forwarded) return forwarded;
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "127.0.0.1";
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
}

const RPC_HEADERS = { "content-type": "application/json" };

/** Builds the HTTP application: JSON-RPC endpoints, OpenRPC documents and health. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const log =
    options.log ??
    pino({ level: config.logLevel, redact: { paths: ["*.password", "*.token", "*.api_key"], censor: "[redacted]" } });
  const orm = options.orm ?? (await openDatabase(config));
  const runtime: Runtime = { config, orm, log, registry: createRegistry(), openrpc: loadOpenrpcDocuments() };
  await ensureAdminFromConfig(runtime);
  const app = new Hono();

  app.get("/health", async (c) => {
    try {
      await orm.em.getConnection().execute("select 1");
      return c.json({ status: "ok", database: "up" });
    } catch {
      return c.json({ status: "degraded", database: "down" }, 503);
    }
  });

  app.get("/api/v1/openrpc.json", (c) => c.json(runtime.openrpc.get("all")));
  app.get("/api/v1/:context/:domain/openrpc.json", (c) => {
    const doc = c.req.param("context") === CONTEXT ? runtime.openrpc.get(c.req.param("domain")) : undefined;
    return doc ? c.json(doc) : c.json({ error: "unknown domain" }, 404);
  });

  const endpoint = (scope: string) => {
    const rpc = new RpcEndpoint(runtime, scope);
    return async (c: Context) => {
      if (c.req.method !== "POST") return c.body(null, 405, { allow: "POST" });
      if (!isJson(c.req.header("content-type"))) return c.json({ error: "content type must be application/json" }, 415);
      const declared = Number(c.req.header("content-length") ?? "0");
      if (declared > config.bodyLimitBytes) return c.json({ error: "request body over 1 MiB" }, 413);
      const body = await c.req.text();
      if (Buffer.byteLength(body) > config.bodyLimitBytes) return c.json({ error: "request body over 1 MiB" }, 413);
      const answer = await rpc.handle(body, readCredentials(c.req.raw.headers), {
        requestId: c.req.header("x-request-id") ?? newRequestId(),
        ip: clientAddress(c, config.trustProxy),
        userAgent: c.req.header("user-agent") ?? null,
        headers: Object.fromEntries(c.req.raw.headers.entries()),
      });
      return answer.body === null
        ? c.body(null, answer.status as 204)
        : c.body(answer.body, answer.status as 200, RPC_HEADERS);
    };
  };
  app.all("/rpc", endpoint("all"));
  for (const domain of DOMAINS) app.all(`/${CONTEXT}/${domain}/rpc`, endpoint(domain));
  const mcp = await mountMcp(app, runtime);

  return {
    hono: app,
    runtime,
    mcp,
    fetch: (request) => Promise.resolve(app.fetch(request)),
    close: async () => {
      await mcp.close();
      if (!options.orm) await closeOrm(orm);
    },
  };
}
