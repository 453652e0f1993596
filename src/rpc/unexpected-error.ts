import { DriverException, UniqueConstraintViolationException } from "@mikro-orm/core";
import { RpcError } from "./errors.ts";

/**
 * What a call answers for an error that is not an RpcError (a driver's exception, a pool's timeout): the database
 * faults a client can retry become `-32011 Unavailable` (DatabaseBusy: a statement, lock or write-slot timeout, a
 * deadlock; DatabaseUnavailable: the connection refused, reset or ended, the server shutting down) with
 * `retry_after_s`; a unique-index race is `AlreadyExists`; anything else is -32603 with no details. Nothing a
 * refused call started stays written: each call runs in one transaction, rolled back when it throws.
 */

/** PostgreSQL SQLSTATEs of a timeout or lock conflict: the same call may pass a moment later. */
const BUSY_STATES = new Set([
  "57014", // query_canceled (statement_timeout)
  "55P03", // lock_not_available (lock_timeout)
  "25P03", // idle_in_transaction_session_timeout
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "53300", // too_many_connections
]);

/** SQLSTATEs and socket errors of a database that cannot be reached, or is going away. */
const DOWN_STATES = new Set([
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
]);

const DOWN_MESSAGES = [
  /Connection terminated/i,
  /connection (is )?closed/i,
  /Client has encountered a connection error/i,
  /Query read timeout/i, // node-postgres' query_timeout: the server did not answer (a silent connection)
];

/** Thrown by the write-slot wait when its deadline passes (src/db/slots.ts). */
export class SlotTimeoutError extends Error {
  constructor(waitedMs: number) {
    super(`no write slot free within ${waitedMs} ms`);
    this.name = "SlotTimeoutError";
  }
}

/** Thrown for a call that reaches the database after shutdown began. */
export class ShuttingDownError extends Error {
  constructor() {
    super("the server is shutting down");
    this.name = "ShuttingDownError";
  }
}

function codeOf(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const cause = (err as { cause?: unknown }).cause;
  return cause === err ? undefined : codeOf(cause);
}

/** The retryable database fault `err` is, or null. */
export function databaseFault(err: unknown): "DatabaseBusy" | "DatabaseUnavailable" | "ShuttingDown" | null {
  if (err instanceof ShuttingDownError) return "ShuttingDown";
  if (err instanceof SlotTimeoutError) return "DatabaseBusy";
  if (!(err instanceof Error)) return null;
  if (err.name === "KnexTimeoutError") return "DatabaseBusy"; // the pool had no connection within its deadline
  const code = codeOf(err);
  if (code && BUSY_STATES.has(code)) return "DatabaseBusy";
  if (code && DOWN_STATES.has(code)) return "DatabaseUnavailable";
  if (DOWN_MESSAGES.some((pattern) => pattern.test(err.message))) return "DatabaseUnavailable";
  return null;
}

const RETRY_AFTER_S = { DatabaseBusy: 1, DatabaseUnavailable: 5, ShuttingDown: 5 } as const;
const MESSAGE = {
  DatabaseBusy: "the database is busy; retry the call",
  DatabaseUnavailable: "the database is unavailable; retry the call",
  ShuttingDown: "the server is shutting down; retry the call on another instance",
} as const;

/** The declared answer for a non-RpcError, or null when only -32603 fits (the caller logs it). */
export function declaredFault(err: unknown): RpcError | null {
  if (err instanceof UniqueConstraintViolationException) {
    return RpcError.app("RpcError", "AlreadyExists", "a record with the same unique value already exists");
  }
  const fault = databaseFault(err);
  if (!fault) return null;
  return RpcError.app("RpcError", fault, MESSAGE[fault], { retry_after_s: RETRY_AFTER_S[fault] }, err);
}

/** Fields for the log line of an internal error (the driver's name and SQLSTATE, never the SQL). */
export function faultDetail(err: unknown): Record<string, unknown> {
  return err instanceof DriverException ? { name: err.name, code: err.code } : {};
}
