/**
 * Summarizes a V8 .cpuprofile: self time by area (Node HTTP, Hono, our pipeline, ajv, MikroORM, knex, pg, pino, GC,
 * idle...), inclusive time by area (share of samples with that area anywhere on the stack), and the top functions
 * by self time. Times are also given per request, so they compare directly with 1e6 / req/s.
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package name, a project file, a node: module, or a V8 pseudo-frame. */
export function moduleOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === "") {
    if (functionName.startsWith("(")) return functionName;
    if (/^write(v|Buffer|Utf8String|Latin1String|AsciiString)$/.test(functionName)) return "(native: socket write)";
    if (functionName === "runMicrotasks") return "(native: microtasks)";
    return "(native)";
  }
  if (url.startsWith("node:")) return url;
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const parts = url.slice(nm + "/node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const project = url.match(/\/(src|generated|bench|codegen)\/(.*)$/);
  return project ? `${project[1]}/${project[2]}` : url.replace(/^file:\/\//, "");
}

const AREAS: [string, RegExp][] = [
  ["(idle)", /^\(idle\)$/],
  ["(garbage collector)", /^\(garbage collector\)$/],
  ["(program: V8/native outside JS)", /^\(program\)$/],
  ["socket write syscalls (loopback TCP)", /^\(native: socket write\)$/],
  ["promise/microtask machinery", /^\(native: microtasks\)$|^node:internal\/process\/task_queues$/],
  ["async_hooks (AsyncLocalStorage on Node 20)", /^node:(internal\/)?async_hooks$/],
  [
    "pino logging",
    /^(pino|sonic-boom|fast-redact|quick-format-unescaped|safe-stable-stringify|thread-stream|atomic-sleep|pino-std-serializers|@pinojs\/.*)$/,
  ],
  ["hono", /^hono$/],
  ["@hono/node-server", /^@hono\/node-server$/],
  ["ajv validators (generated)", /^(generated\/validators\.cjs|ajv|ajv-formats|fast-uri|fast-deep-equal)$/],
  ["MikroORM", /^@mikro-orm\//],
  ["knex", /^(knex|knex-pglite|tarn|debug|lodash|lodash-es)$/],
  [
    "pg driver",
    /^(pg|pg-pool|pg-protocol|pg-types|pg-connection-string|postgres-.*|pgpass|buffer-writer|packet-reader)$/,
  ],
  ["src/app (endpoint, credentials)", /^src\/app\//],
  ["src/rpc (dispatcher, envelope)", /^src\/rpc\//],
  ["src/crud (generic CRUD)", /^src\/crud\//],
  ["src/auth + services", /^src\/(auth|services|domain)\//],
  ["generated (registry, policy)", /^generated\//],
  [
    "node http/net/streams",
    /^node:(_http_|internal\/http|http|net|internal\/net|stream|internal\/streams|internal\/stream_base|events|internal\/event_target|internal\/webstreams|internal\/deps\/undici)/,
  ],
  ["node crypto (randomBytes, hashes)", /^node:(internal\/)?crypto/],
  ["node other (timers, util, buffer...)", /^node:/],
  ["(native builtins)", /^\(native\)$/],
  ["bench harness", /^bench\//],
];

export function areaOf(module: string): string {
  for (const [area, pattern] of AREAS) if (pattern.test(module)) return area;
  return `other: ${module}`;
}

export interface Share {
  name: string;
  ms: number;
  percent: number;
  usPerRequest: number;
}

export interface ProfileSummary {
  wallMs: number;
  requests: number;
  usPerRequestTotal: number;
  /** CPU (not idle) per request. */
  usPerRequestBusy: number;
  selfByArea: Share[];
  inclusiveByArea: Share[];
  topSelfFunctions: Share[];
  selfByModule: Share[];
}

export function summarizeProfile(path: string, requests: number, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const selfArea = new Map<string, number>();
  const inclArea = new Map<string, number>();
  const selfFn = new Map<string, number>();
  const selfModule = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let wall = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const us = profile.timeDeltas[i + 1] ?? 0;
    wall += us;
    const node = byId.get(profile.samples[i]!)!;
    const module = moduleOf(node.callFrame);
    const area = areaOf(module);
    if (area === "(idle)") idle += us;
    add(selfArea, area, us);
    add(selfModule, module, us);
    add(selfFn, `${node.callFrame.functionName || "(anonymous)"} ${module}:${node.callFrame.lineNumber + 1}`, us);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (frame.functionName === "(root)") continue;
      seen.add(areaOf(moduleOf(frame)));
    }
    for (const a of seen) add(inclArea, a, us);
  }
  const n = Math.max(requests, 1);
  const shares = (m: Map<string, number>, limit = Number.POSITIVE_INFINITY): Share[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, us]) => ({
        name,
        ms: Math.round(us / 1000),
        percent: Math.round((1000 * us) / wall) / 10,
        usPerRequest: Math.round((10 * us) / n) / 10,
      }));
  return {
    wallMs: Math.round(wall / 1000),
    requests,
    usPerRequestTotal: Math.round((10 * wall) / n) / 10,
    usPerRequestBusy: Math.round((10 * (wall - idle)) / n) / 10,
    selfByArea: shares(selfArea),
    inclusiveByArea: shares(inclArea),
    topSelfFunctions: shares(selfFn, top),
    selfByModule: shares(selfModule, top),
  };
}

export function printSummary(title: string, s: ProfileSummary): string {
  const lines = [
    `--- profile: ${title} (${s.requests} requests in ${s.wallMs} ms; ${s.usPerRequestBusy} us busy/request of ${s.usPerRequestTotal} us wall)`,
    "self time by area                               %    us/req   | on stack (inclusive) %",
  ];
  const incl = new Map(s.inclusiveByArea.map((x) => [x.name, x.percent]));
  for (const a of s.selfByArea) {
    lines.push(
      `  ${a.name.padEnd(44)} ${String(a.percent).padStart(5)} ${String(a.usPerRequest).padStart(8)}   | ${incl.get(a.name) ?? 0}`,
    );
  }
  lines.push("top functions by self time                                              %    us/req");
  for (const f of s.topSelfFunctions.slice(0, 15)) {
    lines.push(
      `  ${f.name.slice(0, 70).padEnd(70)} ${String(f.percent).padStart(5)} ${String(f.usPerRequest).padStart(8)}`,
    );
  }
  return lines.join("\n");
}

export interface AreaDiff {
  area: string;
  oursUs: number;
  baselineUs: number;
  extraUs: number;
}

/** CPU per request by area, ours against a baseline profiled under the same load: where the extra time goes. */
export function compareAreas(ours: ProfileSummary, baseline: ProfileSummary): AreaDiff[] {
  const base = new Map(baseline.selfByArea.map((a) => [a.name, a.usPerRequest]));
  const names = new Set([...ours.selfByArea.map((a) => a.name), ...base.keys()]);
  const mine = new Map(ours.selfByArea.map((a) => [a.name, a.usPerRequest]));
  return [...names]
    .filter((name) => name !== "(idle)")
    .map((area) => {
      const oursUs = mine.get(area) ?? 0;
      const baselineUs = base.get(area) ?? 0;
      return { area, oursUs, baselineUs, extraUs: Math.round(10 * (oursUs - baselineUs)) / 10 };
    })
    .sort((a, b) => b.extraUs - a.extraUs);
}

export function printComparison(title: string, diffs: AreaDiff[], ours: ProfileSummary, baseline: ProfileSummary) {
  const lines = [
    `--- ${title}: busy us/request ours ${ours.usPerRequestBusy} vs baseline ${baseline.usPerRequestBusy}`,
    `  ${"area".padEnd(44)} ${"ours".padStart(8)} ${"base".padStart(8)} ${"extra".padStart(8)}`,
  ];
  for (const d of diffs.filter((x) => Math.abs(x.extraUs) >= 1)) {
    lines.push(
      `  ${d.area.padEnd(44)} ${String(d.oursUs).padStart(8)} ${String(d.baselineUs).padStart(8)} ${String(d.extraUs).padStart(8)}`,
    );
  }
  return lines.join("\n");
}
