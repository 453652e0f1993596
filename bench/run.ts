/**
 * `npm run bench`: starts its own servers (child processes on free ports, 127.0.0.1 only): a raw node:http echo, a
 * plain Hono echo (reference), a bare node-postgres server and its debit twin, and ours (as `npm start` runs it, on
 * PostgreSQL; later on PGlite). Times `npm start` to the first registration (cold start) and reads the server's
 * resident memory; loads each server with autocannon at 32 connections (warm-up, then a fixed duration), N rounds;
 * prints req/s, p50, p99 and CPU per request per run, each target's median and spread over the rounds by req/s and by
 * CPU per request (PASS/MISS on the median), and writes bench/results/latest.json. It measures; it is not a test: it
 * exits 0 whether targets are met or not (1 only when it could not measure). See bench/README.md.
 *
 *   npm run bench                      3 rounds + 3 cold starts per database (7-8 minutes quiet, 12 loaded)
 *   npm run bench -- --runs 1 --duration 3 --warmup 1 --skip-cold-start --skip-pglite     a quick look
 *   npm run bench -- --profile         then CPU-profiles the baselines and our server under the same load, compares
 *                                      CPU per request by area, A/Bs LOG_LEVEL=warn, times the hot-path pieces one by
 *                                      one, writes bench/results/profile.json
 *   --runs N                           rounds of load runs, and cold starts per database (default 3): medians
 *   --duration S  --warmup S  --connections N     override 6 s, 2 s, 32
 *   --skip-cold-start  --skip-pglite   leave out the cold starts / the PGlite memory and load phase
 *   --skip-codegen  --codegen-only     leave out / run only the codegen phase (whole spec and a one-method change,
 *                                      against a process start; bench/lib/codegen.ts; writes results/codegen.json)
 *   --trivial M --trivial-params JSON  the trivial method (default pricingservice.get_shareholder_fee_rate)
 *   --wait-quiet S                     wait up to S s (default 30) for other load on the machine to stop first
 *   --nice=N                           priority of the bench and its servers inside its own session (default -10)
 *   --autogroup-nice=N                 priority of the bench's whole session against other sessions (root; Linux
 *                                      shares CPU fairly between sessions, so on a shared machine the bench gets
 *                                      about 1 of 2 cores without it; with -10 the others are nearly starved)
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), schemas bench_<pid> (and
 * bench_cold_<pid> for the cold starts), migrated fresh by our server and dropped at the end.
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  BENCH_SECRETS,
  type Child,
  killAll,
  type StartOptions,
  setAutogroupNice,
  startChild as start,
  startMain,
  trySetPriority,
} from "./lib/children.ts";
import { type CodegenFigures, codegenBench } from "./lib/codegen.ts";
import { type ColdStart, measureColdStart } from "./lib/cold-start.ts";
import { DEBIT_BODY, isDeduction, prepareDebitUsers, rotatingAuth } from "./lib/debit.ts";
import { benchKeys } from "./lib/keys.ts";
import { describe, type Figures, type LoadSettings, type LoadSpec, runLoad, waitForQuiet } from "./lib/load.ts";
import { type PgliteFigures, pgliteLoad } from "./lib/pglite.ts";
import { serverMemory } from "./lib/proc.ts";
import { profileAll } from "./lib/profiling.ts";
import { machineInfo, printTargets, type Runs, ratioSpreads, spread, targets } from "./lib/report.ts";
import { backendsOf, call, dropSchema, insertResident, registerUser } from "./lib/setup.ts";
import { mcpSpecs } from "./mcp.ts";

/**
 * The trivial read-only method: anonymous, no database, two validated params, a ~250-byte answer. (get_all_pricing
 * answers 1.9 KB: serializing it costs ~11 us per call here, about all a 25x batch leaves per call; measure it with
 * `--trivial pricingservice.get_all_pricing --trivial-params {}`.)
 */
const DEFAULT_TRIVIAL = "pricingservice.get_shareholder_fee_rate";
const DEFAULT_TRIVIAL_PARAMS = '{"company_type":"startup_fzc","shareholder_count":4}';
const BATCH_SIZE = 100;
/** Per run (other sessions may run their own bench on the same PostgreSQL): schemas and PGAPPNAMEs carry the pid. */
const RUN = process.pid;
const SCHEMA = `bench_${RUN}`;
const COLD_SCHEMA = `bench_cold_${RUN}`;
const RESULTS = join(import.meta.dirname, "results");

const { values: flags } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    duration: { type: "string", default: "6" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "32" },
    profile: { type: "boolean", default: false },
    "skip-cold-start": { type: "boolean", default: false },
    "skip-pglite": { type: "boolean", default: false },
    "skip-codegen": { type: "boolean", default: false },
    "codegen-only": { type: "boolean", default: false },
    "wait-quiet": { type: "string", default: "30" },
    trivial: { type: "string", default: DEFAULT_TRIVIAL },
    "trivial-params": { type: "string", default: DEFAULT_TRIVIAL_PARAMS },
    nice: { type: "string", default: "-10" },
    "autogroup-nice": { type: "string" },
  },
});
const settings: LoadSettings = {
  connections: Number(flags.connections),
  warmupS: Number(flags.warmup),
  durationS: Number(flags.duration),
};
const ROUNDS = Math.max(1, Number(flags.runs));
const TRIVIAL_METHOD = flags.trivial;
const TRIVIAL_PARAMS = JSON.parse(flags["trivial-params"]) as object;
const nice = trySetPriority(0, Number(flags.nice)) ? Number(flags.nice) : 0;
const autogroupNice = setAutogroupNice(flags["autogroup-nice"] === undefined ? null : Number(flags["autogroup-nice"]));
const databaseUrl = process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";

const startChild = (name: string, file: string, options: StartOptions = {}) =>
  start(name, file, { ...options, priority: nice });
/** Our server as `npm start` runs it, configured through its environment (on PostgreSQL unless `extra` says). */
const startOurs = (logLevel: string, extra: Record<string, string> = {}) =>
  startMain(`our server (LOG_LEVEL=${logLevel}${extra["PGLITE_DIR"] ? ", PGlite" : ""})`, {
    env: { ...appEnv(logLevel), ...extra },
    timeoutMs: 180_000,
    priority: nice,
  });
const rpc = (id: number, method: string, params: object) => ({ jsonrpc: "2.0", id, method, params });
const log = (line: string) => process.stdout.write(`${line}\n`);
const round1 = (n: number) => Math.round(n * 10) / 10;

function appEnv(logLevel: string): Record<string, string> {
  return {
    ...BENCH_SECRETS,
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: SCHEMA,
    LOG_LEVEL: logLevel,
    NODE_ENV: "production",
    PGAPPNAME: `bench-app-${logLevel}-${RUN}`,
  };
}

/** `count` cold starts on each database, alternating; median and spread of the time and the memory. */
async function coldStarts(count: number) {
  const runs: Record<"pglite" | "postgresql", ColdStart[]> = { pglite: [], postgresql: [] };
  for (let i = 0; i < count; i++) {
    for (const database of ["pglite", "postgresql"] as const) {
      const run = await measureColdStart({ database, databaseUrl, schema: COLD_SCHEMA });
      runs[database].push(run);
      log(
        `cold start ${i + 1}/${count} ${database.padEnd(10)} npm start -> first register ${run.ms} ms, server RSS ${run.rssMiB} MiB (peak ${run.peakRssMiB}; whole tree ${run.treeRssMiB})`,
      );
    }
  }
  const figures = (list: ColdStart[]) => ({
    ms: spread(list.map((r) => r.ms)),
    rssMiB: spread(list.map((r) => r.rssMiB)),
    peakRssMiB: spread(list.map((r) => r.peakRssMiB)),
    treeRssMiB: spread(list.map((r) => r.treeRssMiB)),
  });
  return { pglite: figures(runs.pglite), postgresql: figures(runs.postgresql) };
}

/** The codegen phase: its runs, then the medians and the ratios to a process start. */
function codegenPhase(): CodegenFigures {
  const figures = codegenBench(ROUNDS, log);
  log(
    `codegen: whole spec median ${figures.wholeMs.median} ms (${figures.ratios.whole}x a process start of ${figures.baselineMs.median} ms; codegen's own ${figures.wholeInternalMs.median} ms), one-method change median ${figures.oneMethodMs.median} ms (${figures.ratios.oneMethod}x; own ${figures.oneMethodInternalMs.median} ms, ${figures.oneMethodFilesWritten} files written)`,
  );
  return figures;
}

/** Per run, the figures of the round with the median req/s (a measured run, not a blend). */
function medianRuns(rounds: Runs[]): Runs {
  const out = {} as Runs;
  for (const key of Object.keys(rounds[0]!) as (keyof Runs)[]) {
    const sorted = rounds.map((r) => r[key]).sort((a, b) => a.reqPerS - b.reqPerS);
    out[key] = sorted[Math.floor((sorted.length - 1) / 2)]!;
  }
  return out;
}

async function main(): Promise<void> {
  const started = Date.now();
  log(
    `bench: ${ROUNDS} round(s), ${settings.connections} connections, ${settings.warmupS} s warm-up + ${settings.durationS} s per run, nice ${nice}, autogroup nice ${autogroupNice ?? "unchanged"}`,
  );
  const idleBefore = await waitForQuiet(Number(flags["wait-quiet"]));
  log(
    `machine busy before the run: ${idleBefore} cores (of ${cpus().length}), load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}${idleBefore >= 0.3 ? "  !! other load: figures will be low and noisy" : ""}`,
  );
  const machine = machineInfo(await dropSchema(databaseUrl, SCHEMA));

  // Codegen and cold starts first, while none of the bench's servers runs.
  const codegen = flags["skip-codegen"] ? null : codegenPhase();
  if (flags["codegen-only"]) {
    writeFileSync(join(RESULTS, "codegen.json"), `${JSON.stringify({ machine, codegen }, null, 2)}\n`);
    log("\nwrote bench/results/codegen.json");
    return;
  }
  const coldStart = flags["skip-cold-start"] ? null : await coldStarts(ROUNDS);

  // Our server: it migrates the fresh schema, then gives us a user, a session and the answers to compare.
  const startup = Date.now();
  const app = await startOurs("info");
  const user = await registerUser(`${app.url}/rpc`);
  // "After start" as in the cold start: right after the first registration.
  const appAfterStart = serverMemory(app.pid, app.port);
  log(
    `our server up (migrated) in ${round1((Date.now() - startup) / 1000)} s, RSS ${appAfterStart.rssMiB} MiB after start`,
  );
  const residentSid = await insertResident(databaseUrl, SCHEMA, user.userId);
  const auth = { authorization: `Bearer ${user.token}` };
  const keys = await benchKeys(app.url);
  const scriptKey = { "x-api-key": keys.script };

  const trivialBody = JSON.stringify(rpc(1, TRIVIAL_METHOD, TRIVIAL_PARAMS));
  const trivial = await call(`${app.url}/rpc`, trivialBody);
  const withScriptKey = await call(`${app.url}/rpc`, trivialBody, scriptKey);
  if (withScriptKey.text !== trivial.text) {
    throw new Error(`the trivial call answers otherwise with the script key: ${withScriptKey.text}`);
  }
  const batchBody = JSON.stringify(
    Array.from({ length: BATCH_SIZE }, (_, i) => rpc(i + 1, TRIVIAL_METHOD, TRIVIAL_PARAMS)),
  );
  const batch = await call(`${app.url}/rpc`, batchBody);
  const getBody = JSON.stringify(rpc(1, "digitalresident.get", { sid: residentSid }));
  const get = await call(`${app.url}/rpc`, getBody, auth);
  if ((get.json.result as { sid?: string } | undefined)?.sid !== residentSid) {
    throw new Error(`digitalresident.get does not answer the resident row: ${get.text}`);
  }
  const { jsonrpc: _j, id: _i, ...answer } = trivial.json as Record<string, unknown>;
  const trivialNote = trivial.json.error
    ? `${TRIVIAL_METHOD} answered an error (${trivial.json.error.code} ${trivial.json.error.message}): ` +
      "the figures measure the full pipeline, but on the error path; the raw baselines answer the same bytes"
    : `${TRIVIAL_METHOD} answered a result (${trivial.text.length} bytes); the raw baselines answer the same bytes`;
  log(trivialNote);
  const mcp = await mcpSpecs(app, keys.agent, TRIVIAL_METHOD, TRIVIAL_PARAMS);

  const raw = await startChild("raw node:http", "raw-http.ts", { arg: { answer } });
  const hono = await startChild("hono echo", "hono-echo.ts", { arg: { answer } });
  const barePg = await startChild("bare pg", "bare-pg.ts", {
    arg: { databaseUrl, schema: SCHEMA },
    env: { PGAPPNAME: `bench-bare-pg-${RUN}` },
  });
  const bareDebit = await startChild("bare pg debit", "bare-pg-debit.ts", {
    arg: { databaseUrl, schema: SCHEMA },
    env: { PGAPPNAME: `bench-bare-pg-debit-${RUN}` },
  });
  const debitUsers = await prepareDebitUsers(`${app.url}/rpc`, databaseUrl, SCHEMA);
  const hotAuth = { authorization: `Bearer ${debitUsers.hot}` };
  for (const server of [app, bareDebit]) {
    const sample = await call(`${server.url}/rpc`, DEBIT_BODY, hotAuth);
    if (!isDeduction(sample.text)) throw new Error(`${server.name} does not answer a deduction: ${sample.text}`);
  }
  const rawSample = await call(`${raw.url}/rpc`, trivialBody);
  const honoSample = await call(`${hono.url}/rpc`, trivialBody);
  const pgSample = await call(`${barePg.url}/rpc`, getBody, auth);
  if (rawSample.text !== trivial.text || honoSample.text !== trivial.text) {
    throw new Error(`baselines do not answer the same bytes as our server: ${rawSample.text}`);
  }
  if ((pgSample.json.result as { sid?: string } | undefined)?.sid !== residentSid) {
    throw new Error(`bare pg server does not answer the resident row: ${pgSample.text}`);
  }

  const ours = appEnv("info")["PGAPPNAME"]!;
  const trivialSpec = (name: string, headers: Record<string, string> = {}): LoadSpec => ({
    name,
    server: app,
    path: "/rpc",
    body: trivialBody,
    headers,
    expectBody: trivial.text,
  });
  const debit = (name: string, server: Child, pgName: string, hot: boolean): LoadSpec => ({
    name,
    server,
    path: "/rpc",
    body: DEBIT_BODY,
    ...(hot ? { headers: hotAuth } : { headersPerRequest: rotatingAuth(debitUsers.spread) }),
    verifyBody: isDeduction,
    pgBackends: backendsOf(databaseUrl, pgName),
  });
  const specs = {
    raw: { name: "raw node:http echo", server: raw, path: "/rpc", body: trivialBody, expectBody: trivial.text },
    hono: { name: "plain Hono echo (ref)", server: hono, path: "/rpc", body: trivialBody, expectBody: trivial.text },
    trivial: trivialSpec(`trivial (${TRIVIAL_METHOD.split(".")[1]})`),
    scriptKey: { ...trivialSpec("trivial, script key", scriptKey), pgBackends: backendsOf(databaseUrl, ours) },
    rpcAgentKey: { ...mcp.rpcWithKey, pgBackends: backendsOf(databaseUrl, ours) },
    mcpCall: { ...mcp.mcpCall, pgBackends: backendsOf(databaseUrl, ours) },
    batch: {
      name: `batch x${BATCH_SIZE}`,
      server: app,
      path: "/rpc",
      body: batchBody,
      expectBody: batch.text,
      callsPerRequest: BATCH_SIZE,
    },
    barePg: {
      name: "bare pg session+select",
      server: barePg,
      path: "/rpc",
      body: getBody,
      headers: auth,
      expectBody: pgSample.text,
      pgBackends: backendsOf(databaseUrl, `bench-bare-pg-${RUN}`),
    },
    get: {
      name: "digitalresident.get",
      server: app,
      path: "/rpc",
      body: getBody,
      headers: auth,
      expectBody: get.text,
      pgBackends: backendsOf(databaseUrl, ours),
    },
    debitSpreadBare: debit("bare pg debit, spread", bareDebit, `bench-bare-pg-debit-${RUN}`, false),
    debitSpread: debit("deduct, spread", app, ours, false),
    debitHotBare: debit("bare pg debit, hot", bareDebit, `bench-bare-pg-debit-${RUN}`, true),
    debitHot: debit("deduct, hot wallet", app, ours, true),
  } satisfies Record<keyof Runs, LoadSpec>;

  const rounds: Runs[] = [];
  for (let i = 1; i <= ROUNDS; i++) {
    log(`\n--- round ${i}/${ROUNDS}`);
    const runs = {} as Runs;
    for (const key of Object.keys(specs) as (keyof Runs)[]) {
      runs[key] = await runLoad(specs[key], settings);
      log(describe(runs[key]));
    }
    rounds.push(runs);
  }
  const appAfterLoad = serverMemory(app.pid, app.port);
  log(
    `our server on PostgreSQL: RSS ${appAfterStart.rssMiB} MiB after start, ${appAfterLoad.rssMiB} MiB after the load`,
  );

  let pglite: PgliteFigures | null = null;
  if (!flags["skip-pglite"]) {
    log("\n--- our server on PGlite (fresh data directory): memory, and one pass of load for reference");
    pglite = await pgliteLoad({
      startApp: (env) => startOurs("info", env),
      settings,
      trivialBody,
      batchBody,
      batchSize: BATCH_SIZE,
      log,
    });
    log(
      `our server on PGlite: RSS ${pglite.memory.afterStartMiB} MiB after start, ${pglite.memory.afterLoadMiB} MiB after the load`,
    );
  }

  const q = ratioSpreads(rounds);
  const list = targets({ rounds, coldStart, extraRuns: Object.values(pglite?.runs ?? {}) });
  const other = spread(rounds.flatMap((r) => (Object.values(r) as Figures[]).map((f) => f.cpu.other)));
  const loadAtEnd = loadavg().map((n) => Math.round(n * 100) / 100);
  const fmtRatio = (key: string) => {
    const s = q.reqPerS[key]!;
    return ROUNDS > 1 ? `${s.median} (${s.min}-${s.max})` : String(s.median);
  };
  log("");
  log(
    `reference: plain Hono echo/raw ${fmtRatio("honoEchoOverRaw")}, trivial/Hono echo ${fmtRatio("trivialOverHonoEcho")}`,
  );
  log(
    `memory (server RSS, MiB; peak so far): PostgreSQL after start ${appAfterStart.rssMiB}, after the load ` +
      `${appAfterLoad.rssMiB} (${appAfterLoad.peakRssMiB}); ` +
      (pglite
        ? `PGlite after start ${pglite.memory.afterStartMiB}, after the load ${pglite.memory.afterLoadMiB} (${pglite.memory.peakMiB})`
        : "PGlite skipped") +
      (coldStart
        ? `; after a cold start (median): PGlite ${coldStart.pglite.rssMiB.median} (${coldStart.pglite.peakRssMiB.median}), ` +
          `PostgreSQL ${coldStart.postgresql.rssMiB.median} (${coldStart.postgresql.peakRssMiB.median})`
        : ""),
  );
  log(
    `machine: Node ${machine.node}, PostgreSQL ${machine.postgres}, ${machine.cpus} x ${machine.cpuModel}; load average ` +
      `${machine.loadAverageAtStart.join(" ")} at start, ${loadAtEnd.join(" ")} at the end; other load during the ` +
      `runs ${other.median} cores (${other.min}-${other.max})${other.median >= 0.3 ? "  !! figures are noisy" : ""}`,
  );
  log(`\n${printTargets(list, ROUNDS)}`);

  const results = {
    date: new Date().toISOString(),
    machine: {
      ...machine,
      busyCoresBeforeRun: idleBefore,
      loadAverageAtEnd: loadAtEnd,
      otherCoresDuringRuns: other,
    },
    settings: {
      ...settings,
      runs: ROUNDS,
      nice,
      autogroupNice,
      batchSize: BATCH_SIZE,
      pipelining: 1,
      loadGenerator: "autocannon 8.0.0, in the bench process",
    },
    methods: {
      trivial: TRIVIAL_METHOD,
      trivialParams: TRIVIAL_PARAMS,
      trivialNote,
      scriptKey: "the trivial call with X-API-Key: a personal key without mcp_scope, no call limits",
      mcp: "tools/call of the trivial method's tool on /mcp against the method on /rpc, same agent key (mcp_scope readwrite, no call limits)",
      get: "digitalresident.get (generic CRUD, session token)",
      debit: "creditservice.deduct 0.01 (session tokens; spread: 20 wallets round robin; hot: one wallet)",
      coldStart:
        "npm start (fresh PGlite data dir / fresh PostgreSQL schema) to the first successful authservice.register, polled every 20 ms",
    },
    /** Per run, the round with the median req/s; every round is in `rounds`. */
    runs: medianRuns(rounds),
    rounds,
    /** Medians over the rounds (req/s ratios, then `byCpu`); `ratioSpreads` has each one's min, max and values. */
    ratios: q.medians,
    ratioSpreads: { reqPerS: q.reqPerS, byCpu: q.byCpu },
    coldStart,
    codegen,
    memory: {
      postgresql: {
        afterStartMiB: appAfterStart.rssMiB,
        afterLoadMiB: appAfterLoad.rssMiB,
        peakMiB: appAfterLoad.peakRssMiB,
        treeAfterStartMiB: appAfterStart.treeRssMiB,
        treeAfterLoadMiB: appAfterLoad.treeRssMiB,
      },
      pglite: pglite?.memory ?? null,
    },
    pglite: pglite ? { runs: pglite.runs } : null,
    targets: list,
    wallSeconds: 0,
  };

  if (flags.profile) {
    await profileAll({
      specs,
      settings,
      startApp: startOurs,
      resultsDir: RESULTS,
      micro: {
        databaseUrl,
        schema: SCHEMA,
        residentSid,
        userId: user.userId,
        token: user.token,
        trivialAnswer: answer,
      },
      log,
    });
  }
  for (const child of [raw, hono, barePg, bareDebit, app]) await child.stop();
  results.wallSeconds = Math.round((Date.now() - started) / 1000);
  writeFileSync(join(RESULTS, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  log(`\nwrote bench/results/latest.json (whole run ${results.wallSeconds} s)`);
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(async () => {
    killAll();
    for (const schema of [SCHEMA, COLD_SCHEMA]) await dropSchema(databaseUrl, schema).catch(() => undefined);
    process.exit();
  });
