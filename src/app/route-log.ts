import type { Hono } from "hono";
import type { Logger } from "pino";
import { CONTEXT, DOMAINS } from "../../generated/policy.ts";
import { accessLog, REQUEST_ID_HEADER, requestIdFrom, roundMs } from "../http/request-log.ts";

/** The paths whose handlers write their own line (the JSON-RPC endpoints and `/mcp`). */
const OWN_LINES = new Set(["/rpc", "/mcp", ...DOMAINS.map((domain) => `/${CONTEXT}/${domain}/rpc`)]);

/**
 * Every other route of the app (health, documents, pages, console, metrics): its "http" line and X-Request-Id.
 * The path is logged without its query (email links carry tokens there).
 */
export function logRoutes(app: Hono, log: Logger): void {
  const access = accessLog(log);
  app.use("*", async (c, next) => {
    if (OWN_LINES.has(c.req.path)) return next();
    const started = performance.now();
    const requestId = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    await next();
    c.header(REQUEST_ID_HEADER, requestId);
    const ms = roundMs(performance.now() - started);
    access.info({ requestId, http: c.req.method, path: c.req.path, status: c.res.status, ms }, "http");
  });
}
