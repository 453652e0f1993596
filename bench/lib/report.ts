/**
 * Ratios per round, their median and spread over the rounds, the targets of issue 18 (PASS/MISS on the median, by
 * req/s and by CPU per request), machine information and the printed target table.
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg, release, totalmem } from "node:os";
import type { Figures } from "./load.ts";

/** One round: every load run once, in this order. */
export interface Runs {
  raw: Figures;
  hono: Figures;
  trivial: Figures;
  scriptKey: Figures;
  rpcAgentKey: Figures;
  mcpCall: Figures;
  batch: Figures;
  barePg: Figures;
  get: Figures;
  debitSpreadBare: Figures;
  debitSpread: Figures;
  debitHotBare: Figures;
  debitHot: Figures;
}

export const MCP_OVER_RPC_TARGET = 0.8;

/** A median with the lowest and highest value it was taken from. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  values: number[];
}

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median: Math.round(median * 1000) / 1000, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0, values };
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((1000 * a) / b) / 1000 : 0);
const server = (f: Figures) => f.cpuUsPerRequest.server;
/** Server plus PostgreSQL CPU per request. */
const withPg = (f: Figures) => f.cpuUsPerRequest.server + f.cpuUsPerRequest.postgres;

interface RatioDef {
  key: string;
  name: string;
  /** The lowest passing ratio; null for reference ratios without a target. */
  atLeast: number | null;
  reqPerS(r: Runs): number;
  /**
   * The same comparison by CPU per request, cheaper side on top: the server process, plus its PostgreSQL backends
   * wherever one side reads the database (sessions, key checks and counters, the debit).
   */
  byCpu(r: Runs): number | null;
}

const RATIOS: RatioDef[] = [
  {
    key: "trivialOverRaw",
    name: "trivial method / raw node:http",
    atLeast: 0.9,
    reqPerS: (r) => ratio(r.trivial.reqPerS, r.raw.reqPerS),
    byCpu: (r) => ratio(server(r.raw), server(r.trivial)),
  },
  {
    key: "batchCallsOverSingleCalls",
    name: "batch x100 calls/s / single calls/s",
    atLeast: 25,
    reqPerS: (r) => ratio(r.batch.callsPerS, r.trivial.callsPerS),
    byCpu: (r) => ratio(server(r.trivial) * 100, server(r.batch)),
  },
  {
    key: "getOverBarePg",
    name: "digitalresident.get / bare pg",
    atLeast: 0.9,
    reqPerS: (r) => ratio(r.get.reqPerS, r.barePg.reqPerS),
    byCpu: (r) => ratio(withPg(r.barePg), withPg(r.get)),
  },
  {
    key: "scriptKeyOverAnonymous",
    name: "trivial with script key / anonymous",
    atLeast: 0.8,
    reqPerS: (r) => ratio(r.scriptKey.reqPerS, r.trivial.reqPerS),
    byCpu: (r) => ratio(withPg(r.trivial), withPg(r.scriptKey)),
  },
  {
    key: "mcpOverRpcWithKey",
    name: "MCP tools/call / /rpc, same agent key",
    atLeast: MCP_OVER_RPC_TARGET,
    reqPerS: (r) => ratio(r.mcpCall.reqPerS, r.rpcAgentKey.reqPerS),
    byCpu: (r) => ratio(withPg(r.rpcAgentKey), withPg(r.mcpCall)),
  },
  {
    key: "debitSpreadOverBare",
    name: "deduct / bare pg debit, spread over 20 wallets",
    atLeast: 0.5,
    reqPerS: (r) => ratio(r.debitSpread.reqPerS, r.debitSpreadBare.reqPerS),
    byCpu: (r) => ratio(withPg(r.debitSpreadBare), withPg(r.debitSpread)),
  },
  {
    key: "debitHotOverBare",
    name: "deduct / bare pg debit, one hot wallet",
    atLeast: 0.5,
    reqPerS: (r) => ratio(r.debitHot.reqPerS, r.debitHotBare.reqPerS),
    byCpu: (r) => ratio(withPg(r.debitHotBare), withPg(r.debitHot)),
  },
  {
    key: "honoEchoOverRaw",
    name: "plain Hono echo / raw node:http (reference)",
    atLeast: null,
    reqPerS: (r) => ratio(r.hono.reqPerS, r.raw.reqPerS),
    byCpu: (r) => ratio(server(r.raw), server(r.hono)),
  },
  {
    key: "trivialOverHonoEcho",
    name: "trivial method / plain Hono echo (reference)",
    atLeast: null,
    reqPerS: (r) => ratio(r.trivial.reqPerS, r.hono.reqPerS),
    byCpu: (r) => ratio(server(r.hono), server(r.trivial)),
  },
];

type RatioValues = Record<string, number> & { byCpu: Record<string, number> };

/** Every ratio of one round (the shape latest.json has always had: req/s ratios, then `byCpu`). */
export function ratios(r: Runs): RatioValues {
  const out = { byCpu: {} } as RatioValues;
  for (const def of RATIOS) {
    out[def.key] = def.reqPerS(r);
    const cpu = def.byCpu(r);
    if (cpu !== null) out.byCpu[def.key] = cpu;
  }
  return out;
}

/** Median and spread over the rounds of every ratio, by req/s and by CPU per request. */
export function ratioSpreads(rounds: Runs[]) {
  const all = rounds.map(ratios);
  const reqPerS: Record<string, Spread> = {};
  const byCpu: Record<string, Spread> = {};
  for (const def of RATIOS) {
    reqPerS[def.key] = spread(all.map((q) => q[def.key] as number));
    byCpu[def.key] = spread(all.map((q) => q.byCpu[def.key] ?? 0));
  }
  const medians = { byCpu: {} } as RatioValues;
  for (const def of RATIOS) {
    medians[def.key] = reqPerS[def.key]!.median;
    medians.byCpu[def.key] = byCpu[def.key]!.median;
  }
  return { medians, reqPerS, byCpu };
}

export interface Target {
  name: string;
  /** The median (by req/s for ratios). */
  value: number;
  target: string;
  pass: boolean;
  /** Lowest and highest value over the runs. */
  spread: { min: number; max: number } | null;
  /** Ratios only: the same target by CPU per request. */
  byCpu: { value: number; spread: { min: number; max: number }; pass: boolean } | null;
  unit: string;
}

export interface ColdStartFigures {
  ms: Spread;
  rssMiB: Spread;
}

export interface TargetInput {
  rounds: Runs[];
  /** Null when the cold start was skipped. */
  coldStart: { pglite: ColdStartFigures; postgresql: ColdStartFigures } | null;
  /** Load runs outside the rounds (our server on PGlite), for the answers check. */
  extraRuns: Figures[];
}

const range = (s: Spread) => ({ min: s.min, max: s.max });

export function targets(input: TargetInput): Target[] {
  const spreads = ratioSpreads(input.rounds);
  const list: Target[] = RATIOS.filter((def) => def.atLeast !== null).map((def) => {
    const byReq = spreads.reqPerS[def.key]!;
    const byCpu = spreads.byCpu[def.key]!;
    const atLeast = def.atLeast!;
    return {
      name: def.name,
      value: byReq.median,
      target: `>= ${atLeast}`,
      pass: byReq.median >= atLeast,
      spread: range(byReq),
      byCpu: { value: byCpu.median, spread: range(byCpu), pass: byCpu.median >= atLeast },
      unit: "x",
    };
  });
  const atMost = (name: string, s: Spread, limit: number, unit: string): Target => ({
    name,
    value: s.median,
    target: `<= ${limit} ${unit}`,
    pass: s.median <= limit,
    spread: range(s),
    byCpu: null,
    unit,
  });
  if (input.coldStart) {
    const { pglite, postgresql } = input.coldStart;
    list.push(atMost("cold start: npm start to first register, PostgreSQL", postgresql.ms, 2000, "ms"));
    list.push(atMost("cold start: npm start to first register, fresh PGlite", pglite.ms, 4000, "ms"));
    list.push(atMost("memory after start, PGlite (server RSS)", pglite.rssMiB, 400, "MiB"));
  }
  const all = [...input.rounds.flatMap((r) => Object.values(r) as Figures[]), ...input.extraRuns];
  const bad = all.filter((f) => f.errors + f.timeouts + f.non2xx + f.mismatches > 0);
  list.push({
    name: "every answer as expected (no errors, non-2xx, mismatches)",
    value: bad.length,
    target: "0 bad runs",
    pass: bad.length === 0,
    spread: null,
    byCpu: null,
    unit: "runs",
  });
  return list;
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

export function machineInfo(postgres: string) {
  const cpu = cpus();
  return {
    cpus: cpu.length,
    cpuModel: cpu[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    postgres,
    commit: git(["rev-parse", "--short", "HEAD"]),
    uncommittedChangesInSrc: git(["status", "--porcelain", "--", "src", "generated"]) !== "",
    loadAverageAtStart: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString("en-US") : String(n));
const verdict = (pass: boolean) => (pass ? "PASS" : "MISS");
const cell = (value: number, s: { min: number; max: number } | null, pass: boolean) =>
  `${verdict(pass)} ${fmt(value)}${s && s.min !== s.max ? ` (${fmt(s.min)}-${fmt(s.max)})` : ""}`;

/** The final table: one line per target, the median and its spread, by req/s and by CPU per request. */
export function printTargets(list: Target[], runs: number): string {
  const head =
    `${"target".padEnd(58)} ${"".padEnd(12)} ${"median (min-max)".padEnd(30)} by CPU per request\n` +
    `${"".padEnd(58)} ${"".padEnd(12)} ${`over ${runs} run${runs === 1 ? "" : "s"}`.padEnd(30)}`;
  const lines = list.map(
    (t) =>
      `${t.name.padEnd(58)} ${t.target.padEnd(12)} ${cell(t.value, t.spread, t.pass).padEnd(30)} ` +
      (t.byCpu ? cell(t.byCpu.value, t.byCpu.spread, t.byCpu.pass) : ""),
  );
  return [head, ...lines].join("\n");
}
