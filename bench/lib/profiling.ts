/**
 * `--profile`: CPU-profiles the baselines and our server under the same load (V8 sampling profiler inside each
 * child, only during the measured window), compares CPU per request by area, and measures our server again with
 * LOG_LEVEL=warn to price per-call logging, then times the pieces of the hot paths one by one. Writes bench/results/profile.json; full profiles go to the temp dir.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Child } from "./children.ts";
import { type LoadSettings, type LoadSpec, runLoad } from "./load.ts";
import { type MicroInput, microBench } from "./micro.ts";
import { compareAreas, type ProfileSummary, printComparison, printSummary, summarizeProfile } from "./profile.ts";
import { call } from "./setup.ts";

const INTERVAL_US = 200;

/** Profiled and diagnostic runs are shorter than the measured ones, to keep `--profile` under 4 minutes. */
const short = (settings: LoadSettings): LoadSettings => ({
  ...settings,
  warmupS: Math.min(settings.warmupS, 1),
  durationS: Math.min(settings.durationS, 6),
});

export interface ProfilePlan {
  specs: { raw: LoadSpec; trivial: LoadSpec; barePg: LoadSpec; get: LoadSpec };
  settings: LoadSettings;
  /** Starts another instance of our server with the given log level. */
  startApp(logLevel: string): Promise<Child>;
  resultsDir: string;
  micro: MicroInput;
  log(line: string): void;
}

async function profileOne(spec: LoadSpec, plan: ProfilePlan) {
  const path = join(tmpdir(), `freezone-bench-${spec.name.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`);
  await spec.server.profileStart(INTERVAL_US);
  const figures = await runLoad(spec, short(plan.settings));
  await spec.server.profileStop(path);
  const summary = summarizeProfile(path, figures.requests);
  plan.log(`\n${printSummary(`${spec.name}, ${Math.round(figures.reqPerS)} req/s while profiled`, summary)}`);
  plan.log(`(full profile: ${path}; open in Chrome DevTools)`);
  return { reqPerSWhileProfiled: figures.reqPerS, cpu: figures.cpu, profilePath: path, ...summary };
}

/** A/B in alternating slices (ABABAB), so that drifting load from other sessions hits both sides alike. */
async function alternate(plan: ProfilePlan, a: LoadSpec, b: LoadSpec) {
  const slice = { ...plan.settings, warmupS: 0, durationS: 3 };
  await runLoad(b, { ...slice, durationS: 2 }); // warm the second server's JIT like the first one's
  const sums = { a: { us: 0, n: 0 }, b: { us: 0, n: 0 } };
  for (let i = 0; i < 3; i++) {
    for (const [side, spec] of [
      ["a", a],
      ["b", b],
    ] as const) {
      const f = await runLoad(spec, slice);
      sums[side].us += f.cpuUsPerRequest.server * f.requests;
      sums[side].n += f.requests;
    }
  }
  const info = Math.round(sums.a.us / Math.max(sums.a.n, 1));
  const warn = Math.round(sums.b.us / Math.max(sums.b.n, 1));
  plan.log(`  ${a.name.padEnd(36)} server cpu/req: info ${info} us, warn ${warn} us, logging ${info - warn} us`);
  return { infoCpuUsPerRequest: info, warnCpuUsPerRequest: warn, loggingUsPerRequest: info - warn };
}

export async function profileAll(plan: ProfilePlan): Promise<void> {
  const out: Record<string, unknown> = { date: new Date().toISOString(), samplingIntervalUs: INTERVAL_US };
  const summaries: Record<string, ProfileSummary> = {};
  for (const key of ["raw", "trivial", "barePg", "get"] as const) {
    const result = await profileOne(plan.specs[key], plan);
    summaries[key] = result;
    out[key] = result;
  }
  const trivialDiff = compareAreas(summaries["trivial"]!, summaries["raw"]!);
  const getDiff = compareAreas(summaries["get"]!, summaries["barePg"]!);
  plan.log(
    `\n${printComparison("trivial method vs raw node:http", trivialDiff, summaries["trivial"]!, summaries["raw"]!)}`,
  );
  plan.log(`\n${printComparison("digitalresident.get vs bare pg", getDiff, summaries["get"]!, summaries["barePg"]!)}`);
  out["trivialVsRaw"] = trivialDiff;
  out["getVsBarePg"] = getDiff;

  const quiet = await plan.startApp("warn");
  // Same state as the measured server, which had already run a flush (MikroORM's flush turns on Node 20's
  // AsyncLocalStorage promise hooks for good): without this the A/B would price the hooks as logging.
  await call(`${quiet.url}${plan.specs.get.path}`, plan.specs.get.body, plan.specs.get.headers);
  plan.log("\n--- per-call logging: LOG_LEVEL=info vs warn, alternating 3 s slices (other load drifts)");
  // One line per call on both paths: priced on the trivial one, where the database adds no noise.
  out["logLevelAB"] = { trivial: await alternate(plan, plan.specs.trivial, { ...plan.specs.trivial, server: quiet }) };
  await quiet.stop();
  out["pieces"] = await microBench(plan.micro, plan.log);
  writeFileSync(join(plan.resultsDir, "profile.json"), `${JSON.stringify(out, null, 2)}\n`);
  plan.log("wrote bench/results/profile.json");
}
