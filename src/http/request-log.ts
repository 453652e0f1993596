import type { Logger } from "pino";
import type { Caller } from "../rpc/context.ts";
import { newRequestId } from "../rpc/runtime.ts";

/**
 * One line per request on every endpoint (issue 31 item 10): `/rpc` and the domain endpoints write "rpc" lines
 * (method, caller, ms, outcome), `/mcp` writes "mcp" lines (method or tool, caller, ms, outcome), every other route
 * an "http" line (method and path, status, ms). Each carries the request id, also answered in `X-Request-Id`.
 */

/** What a sent `X-Request-Id` may be: a token of up to 128 printable characters (a UUID, a trace id, `req-42`). */
const SENT_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/** The request's id: the client's `X-Request-Id` when it is a plain token, otherwise one made here. */
export function requestIdFrom(sent: string | null | undefined): string {
  return sent && SENT_ID.test(sent) ? sent : newRequestId();
}

export const REQUEST_ID_HEADER = "x-request-id";

/** Who called, as a log line names it (never a credential): the kind, and the user id when one is known. */
export function callerKind(caller: Caller | null, refused: boolean): string {
  if (refused) return "refused";
  if (caller === null) return "anonymous";
  if (caller.via === "session") return "session";
  if (caller.mcpScope !== null) return "agent_key";
  return caller.partnerId ? "partner_key" : "api_key";
}

/** The caller's fields of a line: its kind, and its user id when it has one. */
export function callerFields(caller: Caller | null, refused = false): { caller: string; user?: string } {
  const kind = callerKind(caller, refused);
  return caller ? { caller: kind, user: caller.userId } : { caller: kind };
}

/**
 * The logger the request lines go to: the application's, without its redaction paths (a request line carries only
 * the fields named here, never params or bodies, and redaction is most of a line's cost).
 */
const accessLoggers = new WeakMap<Logger, Logger>();

export function accessLog(log: Logger): Logger {
  let access = accessLoggers.get(log);
  if (!access) {
    access = log.child({}, { redact: [] });
    accessLoggers.set(log, access);
  }
  return access;
}

export const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;
