import pino from "pino";
import { beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { inJobTransaction, type JobContext } from "../../src/jobs/context.ts";
import { JOBS } from "../../src/jobs/index.ts";
import { type Job, startJob } from "../../src/jobs/job.ts";
import type { Runtime } from "../../src/rpc/runtime.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { sql } from "../support/helpers.ts";

// The background jobs (docs/jobs.md): the list every instance starts, and startJob's promises: the job's name in
// every line, a failed run logged and the next one run, and no two runs of a job at once. Ticks are driven by hand
// (startJob's `tick`) or on a 10 ms timer, so the file stays fast.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});

/** The runtime with a logger whose lines land in `lines`. */
function capturing(): { runtime: Runtime; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { runtime: { ...t.app.runtime, log }, lines };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job counting its runs; `work` decides each run's outcome. */
function countingJob(work: (run: number) => Promise<number>): Job<number> & { runs: number } {
  const job = {
    runs: 0,
    name: "test-job",
    everyS: () => 0.01,
    runOnce: () => work(++job.runs),
    report: (n: number) => (n > 0 ? { fields: { n }, message: "test job did something" } : null),
  };
  return job;
}

describe("the job list", () => {
  test("holds the eleven sweeps by name, each on a positive default interval", () => {
    const defaults = loadConfig({});
    expect(JOBS.map((j) => j.name).sort()).toEqual([
      "auto-renewal",
      "company-lapse",
      "contract-expiry",
      "credit-expiry",
      "draft-expiry",
      "idempotency-key-expiry",
      "invoice-overdue",
      "payment-sweep",
      "proposal-expiry",
      "resident-expiry",
      "treasury-settlement",
    ]);
    for (const job of JOBS) expect(job.everyS(defaults), job.name).toBeGreaterThan(0);
  });

  test("every job runs once on an empty database without a failure line", async () => {
    const { runtime, lines } = capturing();
    for (const job of JOBS) await startJob(runtime, job, 0).tick();
    expect(lines.filter((l) => l["level"] === 50)).toEqual([]);
  });
});

describe("startJob", () => {
  test("a run that changed something logs one line naming the job; a run that changed nothing logs none", async () => {
    const { runtime, lines } = capturing();
    const running = startJob(
      runtime,
      countingJob(async (run) => (run === 1 ? 3 : 0)),
      0,
    );
    await running.tick();
    await running.tick();
    expect(lines).toEqual([expect.objectContaining({ job: "test-job", n: 3, msg: "test job did something" })]);
  });

  test("a failed run is logged with its error and the job name; the next tick runs", async () => {
    const { runtime, lines } = capturing();
    const job = countingJob(async (run) => {
      if (run === 1) throw new Error("boom");
      return 1;
    });
    const running = startJob(runtime, job);
    try {
      await expect.poll(() => job.runs, { timeout: 1000, interval: 5 }).toBeGreaterThanOrEqual(2);
    } finally {
      running.stop();
    }
    const failure = lines.find((l) => l["level"] === 50);
    expect(failure).toMatchObject({ job: "test-job", msg: "job run failed", err: { message: "boom" } });
    expect(lines).toContainEqual(expect.objectContaining({ job: "test-job", msg: "test job did something" }));
  });

  test("a tick while the previous run is still going is skipped: runs never overlap", async () => {
    const { runtime, lines } = capturing();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let active = 0;
    let most = 0;
    const job = countingJob(async () => {
      active += 1;
      most = Math.max(most, active);
      await gate;
      active -= 1;
      return 0;
    });
    const running = startJob(runtime, job);
    try {
      await sleep(80); // some eight ticks of 10 ms while the first run waits
      expect(job.runs).toBe(1);
      release();
      await expect.poll(() => job.runs, { timeout: 1000, interval: 5 }).toBeGreaterThanOrEqual(2);
    } finally {
      running.stop();
    }
    expect(most).toBe(1);
    expect(lines).toContainEqual(expect.objectContaining({ job: "test-job", level: 20 }));
  });

  test("an interval of 0 never starts a timer", async () => {
    const job = countingJob(async () => 0);
    startJob(t.app.runtime, job, 0);
    await sleep(30);
    expect(job.runs).toBe(0);
  });
});

describe("inJobTransaction", () => {
  test("runs its work in a caller-less context named job:<name>:<uuid>, in a transaction", async () => {
    let seen: JobContext | null = null;
    const inTx = await inJobTransaction(t.app.runtime, "test-job", async (ctx) => {
      seen = ctx;
      return ctx.em.isInTransaction();
    });
    expect(inTx).toBe(true);
    const ctx = seen as JobContext | null;
    expect(ctx?.caller).toBeNull();
    expect(ctx?.request.requestId).toMatch(/^job:test-job:[0-9a-f-]{36}$/);
    expect(ctx?.method.name).toBe("job.test-job");
  });

  test("rolls back when the work throws", async () => {
    const insert =
      "insert into admin_action (sid, admin_email, action, target_type, target_id, details, created_at, updated_at) " +
      "values ('jobs-test', 'a@b.c', 'x', 'y', 'z', '{}', now(), now())";
    const attempt = inJobTransaction(t.app.runtime, "test-job", async (ctx) => {
      await ctx.em.execute(insert);
      throw new Error("undo");
    });
    await expect(attempt).rejects.toThrow("undo");
    expect(await sql(t, "select sid from admin_action where sid = 'jobs-test'")).toEqual([]);
  });
});
