/** Starts bench servers as child processes (node + tsx's loader, IPC channel), and stops them. */
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import type { ChildCommand, ChildEvent } from "../servers/child.ts";

const SERVERS = join(import.meta.dirname, "..", "servers");
const CLOCK_TICKS = 100; // USER_HZ on Linux

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

const running = new Set<ChildProcess>();

/** Raises a process's scheduling priority when allowed (root); returns whether it did. */
export function trySetPriority(pid: number, priority: number): boolean {
  try {
    setPriority(pid, priority);
    return true;
  } catch {
    return false;
  }
}

/** Kills every child still running (used on errors and on exit; each by its own pid). */
export function killAll(): void {
  for (const proc of running) if (proc.exitCode === null) proc.kill("SIGKILL");
  running.clear();
}
process.on("exit", killAll);

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

export interface StartOptions {
  /** JSON passed as argv[2]. */
  arg?: unknown;
  env?: Record<string, string>;
  /** How long start-up (our server: connect and migrate) may take. */
  timeoutMs?: number;
  /** Scheduling priority (nice value; negative needs root): keeps other load on a shared machine from skewing runs. */
  priority?: number;
}

export async function startChild(name: string, file: string, options: StartOptions = {}): Promise<Child> {
  const proc = fork(join(SERVERS, file), options.arg === undefined ? [] : [JSON.stringify(options.arg)], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  running.add(proc);
  if (options.priority) trySetPriority(proc.pid!, options.priority);
  let stderr = "";
  proc.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let ready: ChildEvent;
  try {
    ready = await next(proc, name, "ready", options.timeoutMs ?? 60_000);
  } catch (err) {
    proc.kill("SIGKILL");
    running.delete(proc);
    throw new Error(`${(err as Error).message}\n${stderr}`);
  }
  const port = (ready as { port: number }).port;
  const send = (command: ChildCommand) => proc.send(command);
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
      send({ cmd: "profile-start", intervalUs });
      await started;
    },
    async profileStop(path) {
      const saved = next(proc, name, "profile-saved", 60_000);
      send({ cmd: "profile-stop", path });
      await saved;
    },
    async stop() {
      if (proc.exitCode !== null) return;
      const exited = new Promise((resolve) => proc.once("exit", resolve));
      send({ cmd: "stop" });
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
      running.delete(proc);
    },
  };
}
