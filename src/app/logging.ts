import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import type { Config, LogFormat } from "../config.ts";
import { serializeError } from "./log-errors.ts";

/** Params and fields that must never reach a log line, wherever they nest. */
export const LOG_REDACTIONS = [
  "*.password",
  "*.new_password",
  "*.old_password",
  "*.token",
  "*.api_key",
  "*.access_password",
  "*.client_secret",
];

export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: LOG_REDACTIONS, censor: "[redacted]" },
    // Errors are logged under `err` (and an RpcError's `cause`): database errors without their SQL and values.
    serializers: { err: serializeError, cause: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Where the server's lines go: stdout, written as soon as the previous write finished (asynchronous, no minimum
 * length: a line appears when its request ends, not some requests later) as JSON, or through pino-pretty
 * (synchronous: a terminal in development, where a line's cost does not matter).
 */
/** pino-pretty's settings: the local time to the millisecond, the message, then the line's fields. */
export const PRETTY_OPTIONS = { sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" } as const;

export function logDestination(format: LogFormat, isTty: boolean): LogDestination {
  if (format === "pretty" || (format === "auto" && isTty)) {
    const stream = pretty({ ...PRETTY_OPTIONS, colorize: isTty });
    return { stream, flushSync: () => undefined };
  }
  const stream = pino.destination({ sync: false });
  return { stream, flushSync: () => stream.flushSync() };
}

export interface LogDestination {
  stream: DestinationStream;
  /** Writes what is still buffered before the process exits. */
  flushSync(): void;
}
