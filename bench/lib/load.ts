/** One load run with autocannon (in this process), plus where the CPU went while it ran. */

import { readdirSync, readFileSync } from "node:fs";
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
  expectBody: string;
  /** JSON-RPC calls per HTTP request (100 for the batch). */
  callsPerRequest?: number;
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
   * Cores busy during the run: the server process, the load generator (this process), PostgreSQL, the whole
   * machine, and `other` = machine - (server + client + postgres): load from outside the bench, which skews figures.
   */
  cpu: { server: number; client: number; postgres: number; machine: number; other: number };
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds used so far by every PostgreSQL process (the backends serving our pools do the SQL work). */
function postgresCpuSeconds(): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      const fields = stat.split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended while we looked
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

export async function runLoad(spec: LoadSpec, settings: LoadSettings): Promise<Figures> {
  const options = {
    url: spec.server.url + spec.path,
    method: "POST",
    connections: settings.connections,
    pipelining: 1,
    headers: { "content-type": "application/json", ...spec.headers },
    body: spec.body,
    expectBody: spec.expectBody,
    timeout: 10,
  };
  if (settings.warmupS > 0) await autocannon({ ...options, duration: settings.warmupS });
  const serverCpu = spec.server.cpuSeconds();
  const clientCpu = process.cpuUsage();
  const postgresCpu = postgresCpuSeconds();
  const machine = machineTicks();
  const wall = performance.now();
  const r = await autocannon({ ...options, duration: settings.durationS });
  const seconds = (performance.now() - wall) / 1000;
  const clientUsed = process.cpuUsage(clientCpu);
  const machineAfter = machineTicks();
  const server = (spec.server.cpuSeconds() - serverCpu) / seconds;
  const client = (clientUsed.user + clientUsed.system) / 1e6 / seconds;
  const postgres = (postgresCpuSeconds() - postgresCpu) / seconds;
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
  };
}

export function describe(f: Figures): string {
  const calls = f.callsPerS !== f.reqPerS ? ` (${Math.round(f.callsPerS)} calls/s)` : "";
  const bad = f.errors + f.timeouts + f.non2xx + f.mismatches;
  return (
    `${f.name.padEnd(22)} ${String(Math.round(f.reqPerS)).padStart(7)} req/s${calls}  ` +
    `p50 ${f.latencyMs.p50} ms  p99 ${f.latencyMs.p99} ms  ` +
    `cores: server ${f.cpu.server} client ${f.cpu.client} pg ${f.cpu.postgres} other ${f.cpu.other}` +
    (bad > 0 ? `  !! ${f.errors} errors, ${f.timeouts} timeouts, ${f.non2xx} non-2xx, ${f.mismatches} mismatches` : "")
  );
}
