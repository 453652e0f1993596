/**
 * Starts the bench's servers as child processes (node + tsx's loader, IPC channel), and stops them:
 * the baselines from bench/servers/, and our server as production runs it, src/main.ts unchanged.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import { freePort } from "../../tools/cold-start.ts";
import type { ChildCommand, ChildEvent } from "../servers/child.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SERVERS = join(ROOT, "bench", "servers");
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** Secrets a production-mode server requires (src/config.ts): made per bench run, never reused. */
export const BENCH_SECRETS = {
  ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  WEBHOOK_SECRET: randomBytes(24).toString("hex"),
};

export interface Child {
  name: string;
  pid: number;
  port: number;
  url: string;
  /** CPU seconds (user + system) the process has used so far (Linux /proc). */
  cpuSeconds(): number;
  profileStart(intervalUs: number): Promise<void>;
  profileStop(path: string): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** JSON passed as argv[2]. */
  arg?: unknown;
  env?: Record<string, string>;
  /** How long start-up (our server: connect and migrate) may take. */
  timeoutMs?: number;
  /** Scheduling priority (nice value; negative needs root): keeps other load on a shared machine from skewing runs. */
  priority?: number;
}

const running = new Set<ChildProcess>();

/** Kills every child still running (on errors and on exit; each by its own pid). */
export function killAll(): void {
  for (const proc of running) if (proc.exitCode === null) proc.kill("SIGKILL");
  running.clear();
}
process.on("exit", killAll);

/** Raises a process's scheduling priority when allowed (root); returns whether it did. */
export function trySetPriority(pid: number, priority: number): boolean {
  try {
    setPriority(pid, priority);
    return true;
  } catch {
    return false;
  }
}

function next(proc: ChildProcess, name: string, expect: ChildEvent["event"], timeoutMs: number): Promise<ChildEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`${name}: no "${expect}" within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (m: ChildEvent) => {
      if (m.event === "failed") done(new Error(`${name} failed: ${m.message}`));
      else if (m.event === expect) done(null, m);
    };
    const onExit = (code: number | null) => done(new Error(`${name} exited (code ${code}) before "${expect}"`));
    function done(err: Error | null, m?: ChildEvent) {
      clearTimeout(timer);
      proc.off("message", onMessage);
      proc.off("exit", onExit);
      if (err) reject(err);
      else resolve(m!);
    }
    proc.on("message", onMessage);
    proc.once("exit", onExit);
  });
}

function spawn(file: string, args: string[], execArgv: string[], options: StartOptions) {
  const proc = fork(file, args, {
    cwd: ROOT,
    execArgv: ["--import", "tsx", ...execArgv],
    env: { ...process.env, ...options.env },
    // stdout discarded: our server logs there (the cost of producing each line is still paid).
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  running.add(proc);
  if (options.priority) trySetPriority(proc.pid!, options.priority);
  const tail = { text: "" };
  proc.stderr?.on("data", (chunk: Buffer) => {
    tail.text = (tail.text + chunk.toString()).slice(-4000);
  });
  return { proc, tail };
}

function handle(proc: ChildProcess, name: string, port: number, stop: () => void): Child {
  return {
    name,
    pid: proc.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    cpuSeconds() {
      const fields = readFileSync(`/proc/${proc.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    },
    async profileStart(intervalUs) {
      const started = next(proc, name, "profile-started", 10_000);
      proc.send({ cmd: "profile-start", intervalUs } satisfies ChildCommand);
      await started;
    },
    async profileStop(path) {
      const saved = next(proc, name, "profile-saved", 60_000);
      proc.send({ cmd: "profile-stop", path } satisfies ChildCommand);
      await saved;
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((resolve) => proc.once("exit", resolve));
      stop();
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
      running.delete(proc);
    },
  };
}

/** A baseline server from bench/servers/: it announces its port over IPC. */
export async function startChild(name: string, file: string, options: StartOptions = {}): Promise<Child> {
  const args = options.arg === undefined ? [] : [JSON.stringify(options.arg)];
  const { proc, tail } = spawn(join(SERVERS, file), args, [], options);
  try {
    const ready = (await next(proc, name, "ready", options.timeoutMs ?? 60_000)) as { port: number };
    return handle(proc, name, ready.port, () => proc.send({ cmd: "stop" } satisfies ChildCommand));
  } catch (err) {
    proc.kill("SIGKILL");
    running.delete(proc);
    throw new Error(`${(err as Error).message}\n${tail.text}`);
  }
}

/**
 * Our server exactly as `npm start` runs it (tools/start.mjs: the compiled build in dist/, rebuilt first when
 * stale), on a free port, with bench/servers/preload.ts loaded for profiling (through tsx's loader, which leaves
 * the compiled JavaScript as it is); ready when GET /health answers 200; stopped with SIGTERM (main.ts flushes and
 * closes).
 */
export async function startMain(name: string, options: StartOptions = {}): Promise<Child> {
  const port = await freePort();
  const env = { ...options.env, PORT: String(port), HOST: "127.0.0.1" };
  const { proc, tail } = spawn(join(ROOT, "tools", "start.mjs"), [], ["--import", join(SERVERS, "preload.ts")], {
    ...options,
    env,
  });
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  for (;;) {
    if (proc.exitCode !== null) {
      running.delete(proc);
      throw new Error(`${name} exited (code ${proc.exitCode}) during start-up\n${tail.text}`);
    }
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) return handle(proc, name, port, () => proc.kill("SIGTERM"));
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      running.delete(proc);
      throw new Error(`${name} not up within ${options.timeoutMs ?? 180_000} ms\n${tail.text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Linux schedules sessions as autogroups and shares the CPU fairly between them, so `nice` only orders processes
 * inside the bench's own session. With a value, this sets the nice of the bench's whole autogroup (root only) and
 * restores it on exit: other sessions on the machine then get much less CPU while the bench runs. Returns the
 * value in force, or null when unchanged.
 */
export function setAutogroupNice(value: number | null): number | null {
  const path = "/proc/self/autogroup";
  if (value === null) return null;
  try {
    const before = Number(readFileSync(path, "utf8").match(/nice (-?\d+)/)?.[1] ?? "0");
    writeFileSync(path, String(value));
    process.once("exit", () => {
      try {
        writeFileSync(path, String(before));
      } catch {
        // nothing more to do on the way out
      }
    });
    return value;
  } catch {
    return null;
  }
}

export { freePort };
