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

/**
 * Success lines of the JSON-RPC endpoints written per second at most: each one is written while calls are few (tests,
 * development, a quiet server), and under load a line costs more than a trivial call (pino, then the writes), so
 * past the budget the lines are counted instead and the count rides on the next line written (`unlogged`).
 * Errors are always written.
 */
export const SUCCESS_LINES_PER_SECOND = 50;

/** The success-line budget of one logger (per second, a fixed window on `clock`, in milliseconds). */
export class LineBudget {
  private windowStart = Number.NEGATIVE_INFINITY;
  private written = 0;
  private skipped = 0;

  constructor(
    private readonly perSecond: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Null: leave this line out (it is counted); else how many lines were left out since the last one written. */
  take(): number | null {
    const now = this.clock();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.written = 0;
    }
    if (this.written >= this.perSecond) {
      this.skipped += 1;
      return null;
    }
    this.written += 1;
    const skipped = this.skipped;
    this.skipped = 0;
    return skipped;
  }
}

const budgets = new WeakMap<Logger, LineBudget>();

/** The success-line budget shared by every endpoint writing to `log`. */
export function successLines(log: Logger): LineBudget {
  let budget = budgets.get(log);
  if (!budget) {
    budget = new LineBudget(SUCCESS_LINES_PER_SECOND);
    budgets.set(log, budget);
  }
  return budget;
}
