import { ErrorCode } from "../../generated/codes.ts";
import type { RpcError } from "../rpc/errors.ts";

/** Upper bounds of the call latency buckets, in seconds: a trivial call takes ~0.1 ms, a database write a few ms. */
export const CALL_BUCKETS_S = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const;
const BUCKETS_MS = CALL_BUCKETS_S.map((s) => s * 1000);

/** Method label of calls naming no method the server has (unbounded names must not become series). */
export const UNKNOWN_METHOD = "(unknown)";
/** Method label of requests refused before any method was read (unparsable body, bad envelope, bad batch). */
export const INVALID_REQUEST = "(invalid)";

const CODE_NAMES = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** A failed call's outcome label: its variant (spec/errors.json), else the name of its JSON-RPC code. */
export function outcomeOf(error: RpcError): string {
  const variant = error.data?.variant;
  return typeof variant === "string" ? variant : (CODE_NAMES.get(error.code) ?? String(error.code));
}

/** One method's counts: plain numbers bumped on the call path, turned into series only when scraped. */
class MethodStats {
  ok = 0;
  readonly failures = new Map<string, number>();
  /** Per bucket (the last one is +Inf), not cumulative. */
  readonly buckets = new Float64Array(BUCKETS_MS.length + 1);
  sumMs = 0;
  count = 0;

  observe(ms: number): void {
    let bucket = 0;
    while (bucket < BUCKETS_MS.length && ms > (BUCKETS_MS[bucket] as number)) bucket += 1;
    this.buckets[bucket] = (this.buckets[bucket] as number) + 1;
    this.sumMs += ms;
    this.count += 1;
  }

  fail(outcome: string): void {
    this.failures.set(outcome, (this.failures.get(outcome) ?? 0) + 1);
  }
}

/**
 * JSON-RPC calls per method and outcome, and their latency. The call path only bumps numbers of a per-method
 * object found in a Map (no promise, no label object, no prom-client code per call: a trivial call costs ~10 us
 * and prom-client's labelled `observe` ~1 us); the series are written from these numbers at scrape time.
 */
export class CallStats {
  private readonly byMethod = new Map<string, MethodStats>();
  private readonly unknown = new MethodStats();
  private readonly invalid = new MethodStats();

  constructor(private readonly isMethod: (name: string) => boolean) {}

  /** A call that answered a result, `ms` after it started. */
  ok(method: string, ms: number): void {
    const stats = this.of(method);
    stats.ok += 1;
    stats.observe(ms);
  }

  /** A call that answered an error, `ms` after it started. */
  failed(method: string, error: RpcError, ms: number): void {
    const stats = this.of(method);
    stats.fail(outcomeOf(error));
    stats.observe(ms);
  }

  /** A request (or batch entry) refused before it named a method; counted, not timed. */
  invalidRequest(error: RpcError): void {
    this.invalid.fail(outcomeOf(error));
  }

  private of(method: string): MethodStats {
    let stats = this.byMethod.get(method);
    if (stats) return stats;
    if (!this.isMethod(method)) return this.unknown;
    stats = new MethodStats();
    this.byMethod.set(method, stats);
    return stats;
  }

  /** Every method with counts, the unknown and invalid ones last when they have any. */
  entries(): [string, MethodStats][] {
    const all = [...this.byMethod.entries()];
    if (this.unknown.count > 0) all.push([UNKNOWN_METHOD, this.unknown]);
    if (this.invalid.failures.size > 0) all.push([INVALID_REQUEST, this.invalid]);
    return all;
  }
}

const label = (value: string): string => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

const CALLS = "freezone_rpc_calls_total";
const LATENCY = "freezone_rpc_call_duration_seconds";

/**
 * The call series in the Prometheus text format (0.0.4), built from `stats` at scrape time:
 * `freezone_rpc_calls_total{method, outcome}` and the `freezone_rpc_call_duration_seconds{method}` histogram.
 */
export function callSeriesText(stats: CallStats): string {
  const entries = stats.entries();
  const calls = [
    `# HELP ${CALLS} JSON-RPC calls per method and outcome (ok, or the error variant / JSON-RPC code name)`,
    `# TYPE ${CALLS} counter`,
  ];
  const latency = [
    `# HELP ${LATENCY} JSON-RPC call latency per method, from the parsed call to its answer (seconds)`,
    `# TYPE ${LATENCY} histogram`,
  ];
  for (const [name, method] of entries) {
    const m = label(name);
    if (method.ok > 0) calls.push(`${CALLS}{method="${m}",outcome="ok"} ${method.ok}`);
    for (const [outcome, n] of method.failures) calls.push(`${CALLS}{method="${m}",outcome="${label(outcome)}"} ${n}`);
    if (method.count === 0) continue;
    let cumulative = 0;
    for (let i = 0; i < method.buckets.length; i++) {
      cumulative += method.buckets[i] as number;
      const le = i < CALL_BUCKETS_S.length ? String(CALL_BUCKETS_S[i]) : "+Inf";
      latency.push(`${LATENCY}_bucket{le="${le}",method="${m}"} ${cumulative}`);
    }
    latency.push(`${LATENCY}_sum{method="${m}"} ${method.sumMs / 1000}`);
    latency.push(`${LATENCY}_count{method="${m}"} ${method.count}`);
  }
  return `${calls.join("\n")}\n\n${latency.join("\n")}\n`;
}
