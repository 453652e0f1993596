// What `npm start` begins for the embedded database before it loads the server bundle (src/db/pglite-early.ts takes
// it over): PGlite's WebAssembly compiling on V8's background threads, and for a fresh data directory a copy of the
// build's template made by a `cp` child process into `<data dir>.staging-<pid>`. Creating the template's 1,400 files
// is kernel work that costs ~1-2 s here; done beside module loading, it is off the path to the first request.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { alive } from "./build-lock.mjs";

const EARLY = Symbol.for("freezone.pgliteEarly");

/** `dataDir` as src/config.ts reads it (PGLITE_DIR, default ./data; empty means in memory). */
export function beginPgliteStart(template, env = process.env) {
  if (env.DATABASE_URL) return;
  const early = { wasm: compilePgliteWasm() };
  const dir = env.PGLITE_DIR ?? "./data";
  if (dir) early.staged = stageTemplate(template, resolve(dir));
  globalThis[EARLY] = early;
}

/** PGlite's pglite.wasm, compiled; undefined when it cannot be (PGlite then compiles it itself). */
async function compilePgliteWasm() {
  try {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    return await WebAssembly.compile(await readFile(join(dirname(entry), "pglite.wasm")));
  } catch {
    return undefined;
  }
}

/** Starts copying the template beside a fresh data directory; undefined when there is nothing to stage. */
function stageTemplate(template, target) {
  removeAbandoned(target);
  if (existsSync(join(target, "PG_VERSION")) || !existsSync(join(template, "PG_VERSION"))) return undefined;
  if (!existsSync(dirname(target))) return undefined;
  const staging = `${target}.staging-${process.pid}`;
  // Whatever happens (the data directory is locked by another server, a failed start), no copy is left behind.
  process.on("exit", () => rmSync(staging, { recursive: true, force: true }));
  const ready = new Promise((done) => {
    const cp = spawn("cp", ["-R", template, staging], { stdio: "ignore" });
    cp.on("error", () => done(false)); // no cp: the server copies the template itself
    cp.on("exit", (code) => done(code === 0));
  });
  return { target, staging, ready };
}

/** Staging directories of starts that died before moving theirs into place. */
function removeAbandoned(target) {
  const prefix = `${basename(target)}.staging-`;
  let names = [];
  try {
    names = readdirSync(dirname(target)).filter((name) => name.startsWith(prefix));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(prefix.length));
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid))
      rmSync(join(dirname(target), name), { recursive: true, force: true });
  }
}
