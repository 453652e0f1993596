/**
 * `npm run bench`: starts its own servers (child processes on free ports, 127.0.0.1 only): a raw node:http echo, a
 * plain Hono echo (reference), a bare node-postgres server, and ours (src/main.ts exactly as `npm start` runs it, on
 * PostgreSQL). Loads each with autocannon at 32 connections (warm-up, then a fixed duration), prints req/s, p50, p99
 * and CPU per request, the target ratios (PASS/MISS), and writes bench/results/latest.json. It measures; it is not
 * a test: it exits 0 whether targets are met or not (1 only when it could not measure). See bench/README.md.
 *
 *   npm run bench                      the measured run (about 2 minutes)
 *   npm run bench -- --profile         then CPU-profiles the baselines and our server under the same load, compares
 *                                      CPU per request by area, A/Bs LOG_LEVEL=warn, times the hot-path pieces one by
 *                                      one, writes bench/results/profile.json (about 3.5 minutes in all)
 *   --duration S  --warmup S  --connections N     override 10 s, 3 s, 32
 *   --trivial M --trivial-params JSON  the trivial method (default pricingservice.get_shareholder_fee_rate)
 *   --wait-quiet S                     wait up to S s (default 30) for other load on the machine to stop first
 *   --nice=N                           priority of the bench and its servers inside its own session (default -10)
 *   --autogroup-nice=N                 priority of the bench's whole session against other sessions (root; Linux
 *                                      shares CPU fairly between sessions, so on a shared machine the bench gets
 *                                      about 1 of 2 cores without it; with -10 the others are nearly starved)
 *
 * Database: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), schema "bench", dropped and
 * migrated again at every run.
 */
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  BENCH_SECRETS,
  killAll,
  type StartOptions,
  setAutogroupNice,
  startChild as start,
  startMain,
  trySetPriority,
} from "./lib/children.ts";
import { DEBIT_BODY, isDeduction, prepareDebitUsers, rotatingAuth } from "./lib/debit.ts";
import { describe, type Figures, type LoadSettings, type LoadSpec, runLoad, waitForQuiet } from "./lib/load.ts";
import { profileAll } from "./lib/profiling.ts";
import { machineInfo, printTargets, type Runs, ratios, targets } from "./lib/report.ts";
import { backendsOf, call, dropSchema, insertResident, registerUser } from "./lib/setup.ts";

/**
 * The trivial read-only method: anonymous, no database, two validated params, a ~250-byte answer. (get_all_pricing
 * answers 1.9 KB: serializing it costs ~11 us per call here, about all a 25x batch leaves per call; measure it with
 * `--trivial pricingservice.get_all_pricing --trivial-params {}`.)
 */
const DEFAULT_TRIVIAL = "pricingservice.get_shareholder_fee_rate";
const DEFAULT_TRIVIAL_PARAMS = '{"company_type":"startup_fzc","shareholder_count":4}';
const BATCH_SIZE = 100;
const SCHEMA = "bench";
const RESULTS = join(import.meta.dirname, "results");

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "32" },
    profile: { type: "boolean", default: false },
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
const TRIVIAL_METHOD = flags.trivial;
const TRIVIAL_PARAMS = JSON.parse(flags["trivial-params"]) as object;
const nice = trySetPriority(0, Number(flags.nice)) ? Number(flags.nice) : 0;
const autogroupNice = setAutogroupNice(flags["autogroup-nice"] === undefined ? null : Number(flags["autogroup-nice"]));
const databaseUrl = process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";

const startChild = (name: string, file: string, options: StartOptions = {}) =>
  start(name, file, { ...options, priority: nice });
/** Our server: src/main.ts as `npm start` runs it, configured through its environment. */
const startOurs = (logLevel: string) =>
  startMain(`our server (LOG_LEVEL=${logLevel})`, { env: appEnv(logLevel), timeoutMs: 180_000, priority: nice });
const rpc = (id: number, method: string, params: object) => ({ jsonrpc: "2.0", id, method, params });
const log = (line: string) => process.stdout.write(`${line}\n`);

function appEnv(logLevel: string): Record<string, string> {
  return {
    ...BENCH_SECRETS,
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: SCHEMA,
    LOG_LEVEL: logLevel,
    NODE_ENV: "production",
    PGAPPNAME: `bench-app-${logLevel}`,
  };
}

async function measure(spec: LoadSpec): Promise<Figures> {
  const figures = await runLoad(spec, settings);
  log(describe(figures));
  return figures;
}

async function main(): Promise<void> {
  const started = Date.now();
  log(
    `bench: ${settings.connections} connections, ${settings.warmupS} s warm-up + ${settings.durationS} s per run, nice ${nice}, autogroup nice ${autogroupNice ?? "unchanged"}`,
  );
  const idleBefore = await waitForQuiet(Number(flags["wait-quiet"]));
  log(
    `machine busy before the run: ${idleBefore} cores (of ${cpus().length})${idleBefore >= 0.3 ? "  !! other load: figures will be low and noisy" : ""}`,
  );
  const postgres = await dropSchema(databaseUrl, SCHEMA);

  // Our server first: it migrates the fresh schema, then gives us a user, a session and the answers to compare.
  const startup = Date.now();
  const app = await startOurs("info");
  log(`our server up (migrated) in ${Math.round((Date.now() - startup) / 100) / 10} s`);
  const user = await registerUser(`${app.url}/rpc`);
  const residentSid = await insertResident(databaseUrl, SCHEMA, user.userId);
  const auth = { authorization: `Bearer ${user.token}` };

  const trivialBody = JSON.stringify(rpc(1, TRIVIAL_METHOD, TRIVIAL_PARAMS));
  const trivial = await call(`${app.url}/rpc`, trivialBody);
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

  const raw = await startChild("raw node:http", "raw-http.ts", { arg: { answer } });
  const hono = await startChild("hono echo", "hono-echo.ts", { arg: { answer } });
  const barePg = await startChild("bare pg", "bare-pg.ts", {
    arg: { databaseUrl, schema: SCHEMA },
    env: { PGAPPNAME: "bench-bare-pg" },
  });
  const bareDebit = await startChild("bare pg debit", "bare-pg-debit.ts", {
    arg: { databaseUrl, schema: SCHEMA },
    env: { PGAPPNAME: "bench-bare-pg-debit" },
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

  const specs = {
    raw: { name: "raw node:http echo", server: raw, path: "/rpc", body: trivialBody, expectBody: trivial.text },
    hono: { name: "plain Hono echo (ref)", server: hono, path: "/rpc", body: trivialBody, expectBody: trivial.text },
    trivial: {
      name: `trivial (${TRIVIAL_METHOD.split(".")[1]})`,
      server: app,
      path: "/rpc",
      body: trivialBody,
      expectBody: trivial.text,
    },
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
      pgBackends: backendsOf(databaseUrl, "bench-bare-pg"),
    },
    get: {
      name: "digitalresident.get",
      server: app,
      path: "/rpc",
      body: getBody,
      headers: auth,
      expectBody: get.text,
      pgBackends: backendsOf(databaseUrl, appEnv("info")["PGAPPNAME"]!),
    },
    ...debitSpecs(),
  } satisfies Record<keyof Runs, LoadSpec>;

  function debitSpecs() {
    const debit = (name: string, server: typeof app, pgName: string, hot: boolean): LoadSpec => ({
      name,
      server,
      path: "/rpc",
      body: DEBIT_BODY,
      ...(hot ? { headers: hotAuth } : { headersPerRequest: rotatingAuth(debitUsers.spread) }),
      verifyBody: isDeduction,
      pgBackends: backendsOf(databaseUrl, pgName),
    });
    const ours = appEnv("info")["PGAPPNAME"]!;
    return {
      debitSpreadBare: debit("bare pg debit, spread", bareDebit, "bench-bare-pg-debit", false),
      debitSpread: debit("deduct, spread", app, ours, false),
      debitHotBare: debit("bare pg debit, hot", bareDebit, "bench-bare-pg-debit", true),
      debitHot: debit("deduct, hot wallet", app, ours, true),
    };
  }

  const runs = {} as Runs;
  for (const key of Object.keys(specs) as (keyof Runs)[]) runs[key] = await measure(specs[key]);

  const q = ratios(runs);
  const list = targets(runs);
  log("");
  log(
    `ratios: trivial/raw ${q.trivialOverRaw}  (plain Hono echo/raw ${q.honoEchoOverRaw}, trivial/Hono echo ${q.trivialOverHonoEcho})`,
  );
  log(
    `        batch calls/s / single calls/s ${q.batchCallsOverSingleCalls}   digitalresident.get/bare pg ${q.getOverBarePg}`,
  );
  log(
    `by CPU per request (what the ratios would be if each server had a core to itself): trivial/raw ${q.byCpu.trivialOverRaw}, batch ${q.byCpu.batchCallsOverSingleCalls}, get/bare pg ${q.byCpu.getOverBarePg}`,
  );
  log(
    `        deduct/bare pg debit: spread ${q.debitSpreadOverBare} (by CPU ${q.byCpu.debitSpreadOverBare}), hot wallet ${q.debitHotOverBare} (by CPU ${q.byCpu.debitHotOverBare})`,
  );
  log(printTargets(list));

  const results = {
    date: new Date().toISOString(),
    machine: { ...machineInfo(postgres), busyCoresBeforeRun: idleBefore },
    settings: {
      ...settings,
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
      get: "digitalresident.get (generic CRUD, session token)",
      debit: "creditservice.deduct 0.01 (session tokens; spread: 20 wallets round robin; hot: one wallet)",
    },
    runs,
    ratios: q,
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
  .finally(() => {
    killAll();
    process.exit();
  });
