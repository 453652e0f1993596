/** Ratios, targets (PASS/MISS), machine information and the results file. */
import { execFileSync } from "node:child_process";
import { cpus, release, totalmem } from "node:os";
import type { Figures } from "./load.ts";

export interface Target {
  name: string;
  value: number;
  target: string;
  pass: boolean;
}

export interface Runs {
  raw: Figures;
  hono: Figures;
  trivial: Figures;
  batch: Figures;
  barePg: Figures;
  get: Figures;
  debitSpreadBare: Figures;
  debitSpread: Figures;
  debitHotBare: Figures;
  debitHot: Figures;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((1000 * a) / b) / 1000 : 0);

/** Server plus PostgreSQL CPU per request. */
const cpuOf = (f: Figures) => f.cpuUsPerRequest.server + f.cpuUsPerRequest.postgres;

export function ratios(r: Runs) {
  return {
    trivialOverRaw: ratio(r.trivial.reqPerS, r.raw.reqPerS),
    honoEchoOverRaw: ratio(r.hono.reqPerS, r.raw.reqPerS),
    trivialOverHonoEcho: ratio(r.trivial.reqPerS, r.hono.reqPerS),
    batchCallsOverSingleCalls: ratio(r.batch.callsPerS, r.trivial.callsPerS),
    getOverBarePg: ratio(r.get.reqPerS, r.barePg.reqPerS),
    debitSpreadOverBare: ratio(r.debitSpread.reqPerS, r.debitSpreadBare.reqPerS),
    debitHotOverBare: ratio(r.debitHot.reqPerS, r.debitHotBare.reqPerS),
    /** The same comparisons by CPU per request (server process; + PostgreSQL for the database pair). */
    byCpu: {
      trivialOverRaw: ratio(r.raw.cpuUsPerRequest.server, r.trivial.cpuUsPerRequest.server),
      batchCallsOverSingleCalls: ratio(r.trivial.cpuUsPerRequest.server * 100, r.batch.cpuUsPerRequest.server),
      getOverBarePg: ratio(
        r.barePg.cpuUsPerRequest.server + r.barePg.cpuUsPerRequest.postgres,
        r.get.cpuUsPerRequest.server + r.get.cpuUsPerRequest.postgres,
      ),
      debitSpreadOverBare: ratio(cpuOf(r.debitSpreadBare), cpuOf(r.debitSpread)),
      debitHotOverBare: ratio(cpuOf(r.debitHotBare), cpuOf(r.debitHot)),
    },
  };
}

export function targets(r: Runs): Target[] {
  const q = ratios(r);
  const clean = (f: Figures) => f.errors + f.timeouts + f.non2xx + f.mismatches === 0;
  return [
    {
      name: "trivial method / raw node:http",
      value: q.trivialOverRaw,
      target: ">= 0.8",
      pass: q.trivialOverRaw >= 0.8,
    },
    {
      name: "batch calls/s / single calls/s",
      value: q.batchCallsOverSingleCalls,
      target: ">= 25",
      pass: q.batchCallsOverSingleCalls >= 25,
    },
    { name: "digitalresident.get / bare pg", value: q.getOverBarePg, target: ">= 0.5", pass: q.getOverBarePg >= 0.5 },
    { name: "digitalresident.get req/s", value: r.get.reqPerS, target: ">= 5000", pass: r.get.reqPerS >= 5000 },
    {
      name: "digitalresident.get p99 ms",
      value: r.get.latencyMs.p99,
      target: "<= 20",
      pass: r.get.latencyMs.p99 <= 20,
    },
    {
      name: "deduct / bare pg debit, spread over 20 wallets",
      value: q.debitSpreadOverBare,
      target: ">= 0.5",
      pass: q.debitSpreadOverBare >= 0.5,
    },
    {
      name: "deduct / bare pg debit, one hot wallet",
      value: q.debitHotOverBare,
      target: ">= 0.5",
      pass: q.debitHotOverBare >= 0.5,
    },
    {
      name: "every answer as expected (no errors, non-2xx, mismatches)",
      value: Object.values(r).filter((f) => !clean(f)).length,
      target: "0 runs with bad answers",
      pass: Object.values(r).every(clean),
    },
  ];
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
  };
}

export function printTargets(list: Target[]): string {
  return list
    .map(
      (t) => `${t.pass ? "PASS" : "MISS"}  ${t.name.padEnd(58)} ${String(t.value).padStart(9)}  (target ${t.target})`,
    )
    .join("\n");
}
