/**
 * Cold start as a newcomer meets it: the README's start command, `npm start`, on a fresh PGlite data directory or
 * a fresh PostgreSQL schema, timed from the spawn to the first successful `authservice.register` (a call that reads
 * and writes the database), polled every 20 ms; then the resident memory of the server process (the one listening:
 * npm start runs it under sh and whatever start script package.json names). The whole process group is killed after.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_SECRETS, freePort } from "./children.ts";
import { alive, serverMemory } from "./proc.ts";
import { dropSchema } from "./setup.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const POLL_MS = 20;
const TIMEOUT_MS = 180_000;
const PASSWORD = "Bench-run cold start correct horse battery 42";

export interface ColdStartOptions {
  database: "pglite" | "postgresql";
  /** PostgreSQL only (default BENCH_DATABASE_URL or the local test database). */
  databaseUrl?: string;
  /** PostgreSQL only: dropped first, so the server migrates a fresh schema (default bench_cold_<pid>). */
  schema?: string;
}

export interface ColdStart {
  /** From spawning `npm start` to the answer of the first successful authservice.register. */
  ms: number;
  /** VmRSS of the server process right after that answer. */
  rssMiB: number;
  /** Its highest resident memory until then (VmHWM): the start-up peak. */
  peakRssMiB: number;
  /** The same for every process of the tree (npm, sh, the server and any runner between them). */
  treeRssMiB: number;
}

const groups = new Set<ChildProcess>();
process.on("exit", () => {
  for (const proc of groups) killGroup(proc, "SIGKILL");
});

function killGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-proc.pid!, signal);
  } catch {
    // the group is gone
  }
}

async function registerOnce(url: string, attempt: number): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "authservice.register",
        params: { email: `cold-${process.pid}-${Date.now()}-${attempt}@example.com`, password: PASSWORD },
      }),
      signal: AbortSignal.timeout(30_000),
    });
    const answer = (await res.json()) as { result?: { user_id?: string } };
    return typeof answer.result?.user_id === "string";
  } catch {
    return false; // not listening yet, or not ready
  }
}

/** Stops the tree with SIGTERM (SIGKILL after 5 s) and waits until the server process is gone. */
async function stop(proc: ChildProcess, serverPid: number | null): Promise<void> {
  killGroup(proc, "SIGTERM");
  const deadline = Date.now() + 5000;
  const running = () => proc.exitCode === null && proc.signalCode === null;
  while ((running() || (serverPid !== null && alive(serverPid))) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  killGroup(proc, "SIGKILL");
  while (serverPid !== null && alive(serverPid)) await new Promise((resolve) => setTimeout(resolve, 50));
  groups.delete(proc);
}

export async function measureColdStart(options: ColdStartOptions): Promise<ColdStart> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "freezone-cold-"));
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: "",
    DATABASE_SCHEMA: "",
    PGLITE_DIR: join(dataDir, "data"),
  };
  if (options.database === "postgresql") {
    const databaseUrl =
      options.databaseUrl ?? process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
    const schema = options.schema ?? `bench_cold_${process.pid}`;
    await dropSchema(databaseUrl, schema);
    Object.assign(env, BENCH_SECRETS, { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema });
  }
  const url = `http://127.0.0.1:${port}/rpc`;
  const started = performance.now();
  const proc = spawn("npm", ["start"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "ignore", "pipe"] });
  groups.add(proc);
  let tail = "";
  proc.stderr?.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  let serverPid: number | null = null;
  try {
    for (let attempt = 1; ; attempt++) {
      const pollStarted = performance.now();
      if (await registerOnce(url, attempt)) break;
      if (proc.exitCode !== null) throw new Error(`npm start exited (code ${proc.exitCode})\n${tail}`);
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`npm start: no registration in ${TIMEOUT_MS} ms`);
      const wait = POLL_MS - (performance.now() - pollStarted);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const ms = Math.round(performance.now() - started);
    const memory = serverMemory(proc.pid!, port);
    serverPid = memory.pid;
    return { ms, rssMiB: memory.rssMiB, peakRssMiB: memory.peakRssMiB, treeRssMiB: memory.treeRssMiB };
  } finally {
    await stop(proc, serverPid);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
