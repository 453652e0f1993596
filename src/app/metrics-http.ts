import { createServer, type Server } from "node:http";
import type { Logger } from "pino";
import { authenticateSession } from "../auth/sessions.ts";
import type { Credentials } from "../http/credentials.ts";
import type { AppMetrics } from "../metrics/metrics.ts";
import { isAdminSession } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";
import type { Runtime } from "../rpc/runtime.ts";
import { listen } from "./listen.ts";

export interface MetricsAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

const JSON_HEADERS = { "content-type": "application/json" };
const refuse = (status: 401 | 403, error: string): MetricsAnswer => ({
  status,
  body: JSON.stringify({ error }),
  headers: status === 401 ? { ...JSON_HEADERS, "www-authenticate": "Bearer" } : JSON_HEADERS,
});

async function scraped(metrics: AppMetrics): Promise<MetricsAnswer> {
  return { status: 200, body: await metrics.scrape(), headers: { "content-type": metrics.contentType } };
}

/**
 * `GET /metrics` on the public port: an administrator's signed-in session only (`Authorization: Bearer <token>`).
 * No credentials or a session that does not hold: 401. A user's session, or any API key (an administrator's too:
 * keys never carry administrator rights, as at the dispatcher): 403. Refusals carry no metrics.
 */
export async function publicMetrics(runtime: Runtime, metrics: AppMetrics, creds: Credentials): Promise<MetricsAnswer> {
  if (creds.both) return refuse(401, "send one credential: an administrator's session token");
  const key = creds.apiKey ?? (creds.bearer?.startsWith("fz_") ? creds.bearer : null);
  if (key) return refuse(403, "API keys cannot read metrics: use an administrator's session or the metrics port");
  if (!creds.bearer) return refuse(401, "an administrator's session token is required");
  try {
    const caller = await authenticateSession(runtime.orm.em.fork(), creds.bearer, runtime.config.clock());
    if (!isAdminSession(caller)) return refuse(403, "administrators only");
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    return refuse(err.code === -32001 ? 401 : 403, err.message);
  }
  return scraped(metrics);
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The metrics port (METRICS_PORT, bound to METRICS_HOST, 127.0.0.1 by default): `GET /metrics` without
 * credentials, for a scraper on the host or a private network; nothing else is served there.
 */
export async function startMetricsServer(
  metrics: AppMetrics,
  log: Logger,
  where: { port: number; host: string },
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, JSON_HEADERS).end('{"error":"only /metrics is served on this port"}');
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    scraped(metrics).then(
      (answer) => res.writeHead(answer.status, answer.headers).end(req.method === "HEAD" ? undefined : answer.body),
      (err: unknown) => {
        log.error({ err }, "metrics collection failed");
        res.writeHead(500, JSON_HEADERS).end('{"error":"metrics collection failed"}');
      },
    );
  });
  const bound = await listen(server, where.port, where.host);
  return {
    port: bound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
