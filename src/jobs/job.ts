import type { Config } from "../config.ts";
import type { Runtime } from "../rpc/runtime.ts";

/** The info line of a run that changed something. */
export interface JobReport {
  fields: Record<string, unknown>;
  message: string;
}

/**
 * A periodic job of one instance (docs/jobs.md). Every instance runs every job on its own timer; a job's statements
 * are conditional, so two instances (or a run and a call) never change a row twice.
 */
export interface Job<T> {
  /** Names the job in its log lines and its transactions' request ids (`job:<name>:<uuid>`). */
  name: string;
  /** Seconds between runs, from the configuration; 0 (or less) never runs it. */
  everyS(config: Config): number;
  /** One run on the runtime's clock; it opens its transactions with inJobTransaction (src/jobs/context.ts). */
  runOnce(runtime: Runtime, now: Date): Promise<T>;
  /** The info line of a run worth logging; null when the run changed nothing. */
  report(result: T): JobReport | null;
}

/** A job of any result type (the list of all jobs holds several). */
// biome-ignore lint/suspicious/noExplicitAny: a list of jobs of different results; each job checks its own.
export type AnyJob = Job<any>;

export interface RunningJob {
  stop(): void;
  /** Runs one tick now, as the timer would (skipped while a run is going on); resolves when it has ended. */
  tick(): Promise<void>;
}

/**
 * Starts a job on an unref'd timer (it never keeps the process alive); `stop` clears it. A tick that finds the
 * previous run still going is skipped, so runs of one job never overlap in an instance. Every line carries the
 * job's name; a failed run is logged with its error and the next tick runs as usual.
 */
export function startJob<T>(runtime: Runtime, job: Job<T>, everyS = job.everyS(runtime.config)): RunningJob {
  const log = runtime.log.child({ job: job.name });
  let running: Promise<void> | null = null;
  const tick = (): Promise<void> => {
    if (running) {
      log.debug("job run skipped: the previous run is still going");
      return Promise.resolve();
    }
    running = job
      .runOnce(runtime, runtime.config.clock())
      .then((result) => {
        const line = job.report(result);
        if (line) log.info(line.fields, line.message);
      })
      .catch((err: unknown) => log.error({ err }, "job run failed"))
      .finally(() => {
        running = null;
      });
    return running;
  };
  if (everyS <= 0) return { stop: () => undefined, tick };
  const timer = setInterval(tick, everyS * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}
