import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { declaredFault, ShuttingDownError } from "../rpc/unexpected-error.ts";

/**
 * Requests in flight on the HTTP server, and the refusal of new ones once shutdown began (issue 31 item 1). A
 * request counts from its arrival until its response is finished or its connection closes; an MCP event stream
 * (GET /mcp) stays open by design and is not waited for.
 */
export class Drain {
  inFlight = 0;
  served = 0;
  refused = 0;
  private draining = false;
  private readonly idle: (() => void)[] = [];

  /** Counts `req` in, or answers it 503 (retryable, Connection: close) when shutdown began; false when refused. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.draining) {
      this.refused += 1;
      res.writeHead(503, { "content-type": "application/json", "retry-after": "5", connection: "close" });
      res.end(SHUTTING_DOWN_BODY);
      return false;
    }
    if (req.method === "GET" && req.url?.startsWith("/mcp")) return true;
    this.inFlight += 1;
    res.once("close", () => {
      this.inFlight -= 1;
      this.served += 1;
      if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
    });
    return true;
  }

  /** Stops admitting; resolves true once nothing is in flight, false when `graceMs` passes first. */
  begin(graceMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/** The declared answer of a call refused because shutdown began (src/rpc/unexpected-error.ts). */
const SHUTTING_DOWN_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: null,
  error: declaredFault(new ShuttingDownError())?.toJSON(),
});

export interface ShutdownParts {
  server: Server;
  drain: Drain;
  /** Closes what the HTTP server serves (jobs, MCP sessions, the pool); called once the calls drained. */
  close: () => Promise<void>;
  log: Logger;
  graceMs: number;
}

/**
 * SIGTERM/SIGINT: stop accepting, let calls in flight finish (up to `graceMs`), then close the pool; logs
 * "shutting down" and "drained" with counts and resolves to the exit code: 0 when every call finished, 1 when the
 * deadline passed (connections still open are cut) or closing failed.
 */
export async function shutdown(parts: ShutdownParts, signal: string): Promise<number> {
  const { server, drain, log, graceMs } = parts;
  const started = performance.now();
  log.info({ signal, inFlight: drain.inFlight, graceMs }, "shutting down");
  server.close();
  server.closeIdleConnections();
  const drained = await drain.begin(graceMs);
  if (!drained) {
    log.warn({ inFlight: drain.inFlight, graceMs }, "shutdown deadline passed with calls in flight; cutting them");
  }
  server.closeAllConnections();
  let closed = true;
  try {
    await withDeadline(parts.close(), 5_000);
  } catch (err) {
    closed = false;
    log.error({ err }, "closing the database did not finish");
  }
  const ms = Math.round(performance.now() - started);
  log.info({ served: drain.served, refused: drain.refused, cut: drained ? 0 : drain.inFlight, ms }, "drained");
  return drained && closed ? 0 : 1;
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not finish within ${ms} ms`)), ms);
    timer.unref();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
