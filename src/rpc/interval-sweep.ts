import type { Runtime } from "./runtime.ts";

/** A periodic job of one instance: what it does on the runtime's clock and what its run is worth logging. */
export interface IntervalSweep<T> {
  /** Seconds between runs; 0 (or less) never runs it. */
  everyS: number;
  run: (now: Date) => Promise<T>;
  /** The info line of a run that changed something (null: nothing to say). */
  report: (result: T) => { fields: Record<string, unknown>; message: string } | null;
  /** Logged with the error when a run fails; the next run is tried as usual. */
  failure: string;
}

/**
 * Starts a sweep on an unref'd timer (it never keeps the process alive); `stop` clears it. Runs do not overlap
 * with themselves only as far as each finishes within its interval: every sweep's statements are conditional, so a
 * second instance or an overlapping run changes nothing twice.
 */
export function startIntervalSweep<T>(runtime: Runtime, sweep: IntervalSweep<T>): { stop(): void } {
  if (sweep.everyS <= 0) return { stop: () => undefined };
  const timer = setInterval(() => {
    sweep
      .run(runtime.config.clock())
      .then((result) => {
        const line = sweep.report(result);
        if (line) runtime.log.info(line.fields, line.message);
      })
      .catch((err: unknown) => runtime.log.error({ err }, sweep.failure));
  }, sweep.everyS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
