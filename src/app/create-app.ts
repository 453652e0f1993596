import type { MikroORM } from "@mikro-orm/postgresql";
import { type Context, Hono } from "hono";
import type { Logger } from "pino";
import { CONTEXT, DOMAINS } from "../../generated/policy.ts";
import { ensureAdminFromConfig } from "../auth/admin-bootstrap.ts";
import { KeyCache } from "../auth/key-cache.ts";
import type { Config } from "../config.ts";
import { syncContractTemplates } from "../contracts/sync.ts";
import { contractTemplates } from "../contracts/templates.ts";
import { openDatabase } from "../db/database.ts";
import { closeOrm } from "../db/orm.ts";
import { readCredentials } from "../http/credentials.ts";
import { documentAnswer } from "../http/documents.ts";
import { REQUEST_ID_HEADER, requestIdFrom } from "../http/request-log.ts";
import { startJobs } from "../jobs/index.ts";
import { type McpEndpoint, mountMcp } from "../mcp/endpoint.ts";
import { type AppMetrics, startMetrics } from "../metrics/metrics.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { honoClientAddress } from "./client-address.ts";
import { mountConsole } from "./console.ts";
import { INVITATION_PAGE, SHAREHOLDER_INVITE_PAGE } from "./invitation-pages.ts";
import { createLogger } from "./logging.ts";
import { publicMetrics } from "./metrics-http.ts";
import { openrpcDocuments } from "./openrpc.ts";
import { pageResponse, RESET_PASSWORD_PAGE, VERIFY_EMAIL_PAGE } from "./pages.ts";
import { mountPublicVerify } from "./public-verify-page.ts";
import { healthCheck, readyCheck } from "./readiness.ts";
import { logRoutes } from "./route-log.ts";
import { RpcEndpoint } from "./rpc-endpoint.ts";
import { responseHeaders, serveRpc } from "./rpc-http.ts";
import { createRegistry } from "./runtime.ts";

export interface App {
  hono: Hono;
  runtime: Runtime;
  mcp: McpEndpoint;
  metrics: AppMetrics;
  fetch: (request: Request) => Promise<Response>;
  /**
   * Runs every job once now, in start order, as their timers would when they fire (a job already running is left
   * to finish): what time passing does on a running instance, for tests that move a test clock.
   */
  runJobs(): Promise<void>;
  close(): Promise<void>;
}

export interface AppOptions {
  /** An already open and migrated ORM (tests share one per worker); otherwise one is opened from config. */
  orm?: MikroORM;
  log?: Logger;
}

/** Builds the HTTP application: JSON-RPC endpoints, OpenRPC documents and health. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const log = options.log ?? createLogger(config);
  const orm = options.orm ?? (await openDatabase(config));
  const runtime: Runtime = {
    config,
    orm,
    log,
    registry: createRegistry(),
    openrpc: openrpcDocuments(config.publicBaseUrl),
  };
  const metrics = startMetrics(runtime);
  await ensureAdminFromConfig(runtime);
  // API key checks read it through resolveCaller(em): one per ORM, found by the entity manager.
  const keys = await KeyCache.start(orm, log);
  // The contract template files are read and validated at every start; a bad file stops it (ConfigError).
  const templates = contractTemplates();
  if (config.contractTemplateSync) await syncContractTemplates(orm.em, templates, config.clock());
  const app = new Hono();
  logRoutes(app, log);

  app.get("/health", async (c) => {
    const answer = await healthCheck(orm);
    return c.json(answer.body, answer.status);
  });
  app.get("/ready", async (c) => {
    const answer = await readyCheck(orm);
    return c.json(answer.body, answer.status);
  });

  // The documents' servers URL is PUBLIC_BASE_URL's, whatever Host the request names.
  const serveDocument = (c: Context, scope: string) => {
    const doc = runtime.openrpc.get(scope);
    if (typeof doc !== "object" || doc === null) return c.json({ error: "unknown domain" }, 404);
    const answer = documentAnswer(doc, (name) => c.req.header(name));
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
  app.get("/api/v1/openrpc.json", (c) => serveDocument(c, "all"));
  app.get("/api/v1/:context/:domain/openrpc.json", (c) =>
    serveDocument(c, c.req.param("context") === CONTEXT ? c.req.param("domain") : ""),
  );
  // Administrators' sessions only on this port; METRICS_PORT serves it without credentials (docs/deploy.md).
  app.get("/metrics", async (c) => {
    const answer = await publicMetrics(
      runtime,
      metrics,
      readCredentials((name) => c.req.header(name)),
    );
    return c.body(answer.body, answer.status as 200, answer.headers);
  });
  // Where email links point (src/integrations/email/templates.ts): the page completes the action through /rpc.
  app.get("/verify-email", () => pageResponse(VERIFY_EMAIL_PAGE));
  app.get("/reset-password", () => pageResponse(RESET_PASSWORD_PAGE));
  // The invitation emails' links (issue 30): the page signs the invitee in and answers through /rpc.
  app.get("/invitations/:id", () => pageResponse(INVITATION_PAGE));
  app.get("/shareholder-invite", () => pageResponse(SHAREHOLDER_INVITE_PAGE));
  // Where verificationservice.public_verify_url points: the signed URL's page (the public verdict, tier 1).
  mountPublicVerify(app, runtime);
  mountConsole(app);

  const endpoint = (scope: string) => {
    const rpc = new RpcEndpoint(runtime, scope);
    return async (c: Context) => {
      const lookup = (name: string) => c.req.header(name);
      const requestId = requestIdFrom(lookup(REQUEST_ID_HEADER));
      const request = {
        requestId,
        method: c.req.method,
        header: lookup,
        readBody: async (limit: number) => {
          const body = await c.req.text();
          return Buffer.byteLength(body) > limit ? null : body;
        },
        credentials: readCredentials(lookup),
        ip: honoClientAddress(c, config.trustProxy),
        headers: () => Object.fromEntries(c.req.raw.headers.entries()),
      };
      const answer = await serveRpc(rpc, config, request);
      return new Response(answer.body, { status: answer.status, headers: responseHeaders(config, request, answer) });
    };
  };
  app.all("/rpc", endpoint("all"));
  for (const domain of DOMAINS) app.all(`/${CONTEXT}/${domain}/rpc`, endpoint(domain));
  const mcp = await mountMcp(app, runtime);
  // Each instance runs every job on its own timer; their statements are conditional, so instances never clash.
  const jobs = startJobs(runtime);

  return {
    hono: app,
    runtime,
    mcp,
    metrics,
    fetch: (request) => Promise.resolve(app.fetch(request)),
    runJobs: async () => {
      for (const job of jobs) await job.tick();
    },
    close: async () => {
      for (const job of jobs) job.stop();
      await mcp.close();
      await keys.close();
      if (!options.orm) await closeOrm(orm);
    },
  };
}
