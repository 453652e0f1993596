/** One load run with autocannon (in this process), plus where the CPU went while it ran. */

import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import autocannon from "autocannon";
import type { Child } from "./children.ts";

export interface LoadSpec {
  name: string;
  server: Child;
  path: string;
  body: string;
  headers?: Record<string, string>;
  /** The exact body every answer must have (anything else counts as a mismatch). */
  expectBody?: string;
  /** For answers that differ call by call (a debit's ledger row): what each must satisfy, else a mismatch. */
  verifyBody?: (body: string) => boolean;
  /** Headers chosen per request (a debit spread over wallets rotates session tokens), over `headers`. */
  headersPerRequest?: () => Record<string, string>;
  /** JSON-RPC calls per HTTP request (100 for the batch). */
  callsPerRequest?: number;
  /** PIDs of the PostgreSQL backends serving this server (read after the warm-up, when its pool is full). */
  pgBackends?: () => Promise<number[]>;
}

export interface LoadSettings {
  connections: number;
  warmupS: number;
  durationS: number;
}

export interface Figures {
  name: string;
  reqPerS: number;
  callsPerS: number;
  latencyMs: { p50: number; p90: number; p99: number; avg: number; max: number };
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  /**
   * Cores busy during the run: the server process, the load generator (this process), the PostgreSQL backends of
   * the server's pool, the whole machine, and `other` = machine - (server + client + postgres): load from outside
   * the bench (other sessions on a shared machine), which skews req/s.
   */
  cpu: { server: number; client: number; postgres: number; machine: number; other: number };
  /**
   * CPU microseconds per HTTP request spent by the server process and by PostgreSQL: less sensitive to other load
   * than req/s (what a request costs, not how many fit in the time the machine gave us).
   */
  cpuUsPerRequest: { server: number; postgres: number };
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds used so far by the given PostgreSQL backends (the ones serving the server under load). */
function backendCpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the backend ended while we looked
    }
  }
  return ticks / CLOCK_TICKS;
}

function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function rotate(pick: () => Record<string, string>) {
  return (req: { headers?: Record<string, string> }) => ({ ...req, headers: { ...req.headers, ...pick() } });
}

export async function runLoad(spec: LoadSpec, settings: LoadSettings): Promise<Figures> {
  const options = {
    url: spec.server.url + spec.path,
    method: "POST",
    connections: settings.connections,
    pipelining: 1,
    headers: { "content-type": "application/json", ...spec.headers },
    body: spec.body,
    timeout: 10,
    ...(spec.expectBody === undefined ? {} : { expectBody: spec.expectBody }),
    ...(spec.verifyBody ? { verifyBody: spec.verifyBody } : {}),
    ...(spec.headersPerRequest ? { requests: [{ setupRequest: rotate(spec.headersPerRequest) }] } : {}),
  };
  if (settings.warmupS > 0) await autocannon({ ...options, duration: settings.warmupS });
  const serverCpu = spec.server.cpuSeconds();
  const clientCpu = process.cpuUsage();
  const pids = (await spec.pgBackends?.()) ?? [];
  const postgresCpu = backendCpuSeconds(pids);
  const machine = machineTicks();
  const wall = performance.now();
  const r = await autocannon({ ...options, duration: settings.durationS });
  const seconds = (performance.now() - wall) / 1000;
  const clientUsed = process.cpuUsage(clientCpu);
  const machineAfter = machineTicks();
  const server = (spec.server.cpuSeconds() - serverCpu) / seconds;
  const client = (clientUsed.user + clientUsed.system) / 1e6 / seconds;
  const postgres = (backendCpuSeconds(pids) - postgresCpu) / seconds;
  const busy = ((machineAfter.busy - machine.busy) / (machineAfter.total - machine.total)) * cpus().length;
  const calls = spec.callsPerRequest ?? 1;
  return {
    name: spec.name,
    reqPerS: round(r.requests.average, 1),
    callsPerS: round(r.requests.average * calls, 1),
    latencyMs: {
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      avg: r.latency.average,
      max: r.latency.max,
    },
    requests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    mismatches: r.mismatches,
    cpu: {
      server: round(server),
      client: round(client),
      postgres: round(postgres),
      machine: round(busy),
      other: round(Math.max(0, busy - server - client - postgres)),
    },
    cpuUsPerRequest: {
      server: round((server * 1e6) / Math.max(r.requests.average, 1), 1),
      postgres: round((postgres * 1e6) / Math.max(r.requests.average, 1), 1),
    },
  };
}

export function describe(f: Figures): string {
  const calls = f.callsPerS !== f.reqPerS ? ` (${Math.round(f.callsPerS)} calls/s)` : "";
  const bad = f.errors + f.timeouts + f.non2xx + f.mismatches;
  return (
    `${f.name.padEnd(34)} ${String(Math.round(f.reqPerS)).padStart(7)} req/s${calls}  ` +
    `p50 ${f.latencyMs.p50} ms  p99 ${f.latencyMs.p99} ms  ` +
    `cpu/req ${Math.round(f.cpuUsPerRequest.server)} us (pg ${Math.round(f.cpuUsPerRequest.postgres)})  ` +
    `cores: server ${f.cpu.server} client ${f.cpu.client} pg ${f.cpu.postgres} other ${f.cpu.other}` +
    (f.cpu.other >= 0.3 ? "  !! other load on the machine" : "") +
    (bad > 0 ? `  !! ${f.errors} errors, ${f.timeouts} timeouts, ${f.non2xx} non-2xx, ${f.mismatches} mismatches` : "")
  );
}

/**
 * Other sessions may share this machine: waits up to `maxS` seconds for it to fall under `threshold` busy cores
 * (sampled over 2 s), and returns the last reading, so results can say how quiet the machine was.
 */
export async function waitForQuiet(maxS: number, threshold = 0.3): Promise<number> {
  const deadline = Date.now() + maxS * 1000;
  for (;;) {
    const before = machineTicks();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = machineTicks();
    const busy = round(((after.busy - before.busy) / (after.total - before.total)) * cpus().length);
    if (busy < threshold || Date.now() >= deadline) return busy;
  }
}
