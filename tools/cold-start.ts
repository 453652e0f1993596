// Cold start as a newcomer sees it: the real `npm start` with a fresh PGlite data directory (or a fresh PostgreSQL
// schema), timed until the first `authservice.register` succeeds (a call that reads and writes the database), then
// the resident memory of the server process. The bench calls `measureColdStart`; the CLI prints the figures.
//
//   npx tsx tools/cold-start.ts [--database pglite|postgresql] [--runs 3] [--cwd <checkout>] [--after-load <calls>]
//                               [--timeout <ms>]
//   (postgresql reads DATABASE_URL; each run uses a new schema, dropped afterwards)
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";

const ROOT = join(import.meta.dirname, "..");
const PAGE_SIZE_KIB = 4;

export interface ColdStartOptions {
  database: "pglite" | "postgresql";
  /** PostgreSQL only: the server to use (default: DATABASE_URL). */
  databaseUrl?: string;
  /** PostgreSQL only: the schema to create the tables in (default: a new one, dropped afterwards). */
  schema?: string;
  /** The checkout whose `npm start` runs (default: this one); e.g. another worktree for a before/after. */
  cwd?: string;
  /** Calls (`authservice.register`) to send after the first one, before measuring memory again. */
  afterLoad?: number;
  /** Give up after this long (ms). */
  timeoutMs?: number;
}

export interface ColdStartResult {
  /** From spawning `npm start` to the first successful `authservice.register` answer. */
  ms: number;
  /** Resident memory of the server process (the node process `npm start` runs), just after that answer. */
  rssMiB: number;
  /** CPU time (user + system) the server process used until then: what the start costs without the machine's load. */
  cpuMs: number;
  /** Resident memory after `afterLoad` more registrations (when asked for). */
  rssAfterLoadMiB?: number;
}

/** A free TCP port on 127.0.0.1 (closed again before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** Process ids under `pid` (Linux /proc), deepest last. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children = "";
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8");
    } catch {
      continue;
    }
    for (const child of children.split(" ").filter(Boolean).map(Number)) found.push(child, ...descendants(child));
  }
  return found;
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

function rssMiB(pid: number): number {
  const pages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
  return Math.round(((pages * PAGE_SIZE_KIB) / 1024) * 10) / 10;
}

/** The server: the deepest node process under npm (npm -> sh -> node). */
function serverPid(npm: ChildProcess): number {
  const nodes = descendants(npm.pid!).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "node";
    } catch {
      return false;
    }
  });
  return nodes.at(-1) ?? npm.pid!;
}

async function register(url: string, email: string): Promise<boolean> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "authservice.register",
    params: { email, password: "a long passphrase 2026" },
  });
  try {
    const answer = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    const json = (await answer.json()) as { result?: { access_token?: string } };
    return typeof json.result?.access_token === "string";
  } catch {
    return false;
  }
}

function stopped(proc: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (proc.exitCode !== null || proc.signalCode !== null) done();
    else proc.once("exit", () => done());
  });
}

/** One cold start of `npm start` on a fresh database; the server is stopped (SIGTERM) before this returns. */
export async function measureColdStart(options: ColdStartOptions): Promise<ColdStartResult> {
  const cwd = resolve(options.cwd ?? ROOT);
  const port = await freePort();
  const dataDir = options.database === "pglite" ? mkdtempSync(join(tmpdir(), "fz-cold-")) : null;
  const databaseUrl = options.databaseUrl ?? process.env["DATABASE_URL"] ?? "";
  if (options.database === "postgresql" && !databaseUrl) throw new Error("cold start on PostgreSQL needs DATABASE_URL");
  const schema = options.schema ?? `cold_${randomBytes(4).toString("hex")}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: process.env["LOG_LEVEL"] ?? "warn",
    DATABASE_URL: options.database === "postgresql" ? databaseUrl : "",
    DATABASE_SCHEMA: options.database === "postgresql" ? schema : "",
    PGLITE_DIR: dataDir ?? "",
    // PostgreSQL requires a key every instance shares (src/config.ts); a fresh schema needs no particular one.
    ENCRYPTION_KEY:
      options.database === "postgresql" ? (process.env["ENCRYPTION_KEY"] ?? randomBytes(32).toString("hex")) : "",
  };
  const url = `http://127.0.0.1:${port}/rpc`;
  const started = performance.now();
  const npm = spawn("npm", ["start", "--silent"], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  npm.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  try {
    while (!(await register(url, `cold-${randomBytes(6).toString("hex")}@example.org`))) {
      if (npm.exitCode !== null) throw new Error(`npm start exited (code ${npm.exitCode})\n${stderr}`);
      if (Date.now() > deadline) throw new Error(`no successful authservice.register within the timeout\n${stderr}`);
      await new Promise((done) => setTimeout(done, 20));
    }
    const ms = Math.round(performance.now() - started);
    const pid = serverPid(npm);
    const result: ColdStartResult = { ms, rssMiB: rssMiB(pid), cpuMs: cpuMs(pid) };
    if (options.afterLoad) {
      for (let i = 0; i < options.afterLoad; i++)
        await register(url, `load-${i}-${randomBytes(4).toString("hex")}@x.org`);
      result.rssAfterLoadMiB = rssMiB(pid);
    }
    return result;
  } finally {
    try {
      process.kill(serverPid(npm), "SIGTERM"); // npm exits with its script
    } catch {
      // already gone
    }
    await Promise.race([stopped(npm), new Promise((done) => setTimeout(done, 10_000))]);
    if (npm.exitCode === null) npm.kill("SIGKILL");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (options.database === "postgresql" && !options.schema) await dropSchema(databaseUrl, schema);
  }
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function cli(): Promise<void> {
  const { values } = parseArgs({
    options: {
      database: { type: "string", default: "pglite" },
      runs: { type: "string", default: "3" },
      cwd: { type: "string" },
      "after-load": { type: "string", default: "0" },
      timeout: { type: "string", default: "120000" },
    },
  });
  const database = values.database === "postgresql" ? "postgresql" : "pglite";
  const results: ColdStartResult[] = [];
  for (let run = 0; run < Number(values.runs); run++) {
    const result = await measureColdStart({
      database,
      ...(values.cwd ? { cwd: values.cwd } : {}),
      afterLoad: Number(values["after-load"]),
      timeoutMs: Number(values.timeout),
    });
    results.push(result);
    console.log(`run ${run + 1}: ${JSON.stringify(result)}`);
  }
  console.log(
    `${database}: median ${median(results.map((r) => r.ms))} ms to the first authservice.register, ` +
      `(CPU ${median(results.map((r) => r.cpuMs))} ms), RSS ${median(results.map((r) => r.rssMiB))} MiB after start`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await cli();
