import pino, { type DestinationStream, type Logger } from "pino";
import type { Config } from "../config.ts";
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
