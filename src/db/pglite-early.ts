import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PGliteOptions } from "@electric-sql/pglite";

/**
 * What `npm start` (tools/start.mjs, then tools/pglite-early.mjs) begins for the embedded database before it loads
 * the server bundle, so that the work overlaps the ~2 s of module loading on the main thread instead of following it
 * (cold start, issue 18):
 * - PGlite's WebAssembly (9 MB) compiling on V8's background threads;
 * - for a fresh data directory, a copy of the build's template (1,400 files: creating them is the cost) made by a
 *   `cp` child process into a staging directory beside it, moved into place once this process holds the data
 *   directory's lock.
 * The handover is a global symbol because tools/start.mjs is plain JavaScript that cannot import this module.
 * Without it (tests, `npm run dev`, the CLI, PostgreSQL) PGlite compiles its module and the template is copied here,
 * as before.
 */
type WasmModule = NonNullable<PGliteOptions["pgliteWasmModule"]>;

interface EarlyStart {
  wasm?: Promise<WasmModule | undefined> | undefined;
  /** The staged copy: for `target` (absolute), in `staging`; `ready` says whether the copy completed. */
  staged?: { target: string; staging: string; ready: Promise<boolean> } | undefined;
}

const EARLY = Symbol.for("freezone.pgliteEarly");

/** What `npm start` began and nobody took yet (each piece is taken once: one database per process). */
function earlyStart(): EarlyStart {
  const slot = globalThis as Record<symbol, EarlyStart | undefined>;
  slot[EARLY] ??= {};
  return slot[EARLY];
}

/** The module compiled ahead, if `npm start` began one and it succeeded; otherwise undefined. */
export async function earlyPgliteWasm(): Promise<WasmModule | undefined> {
  const { wasm } = earlyStart();
  earlyStart().wasm = undefined;
  return wasm?.catch(() => undefined);
}

/**
 * Moves the staged template copy into `dir` (fresh, locked by this process) and answers true; false when there is
 * none for this directory or its copy failed (the caller then copies the template itself). A staged copy for another
 * directory, or one no longer needed, is removed.
 */
export async function placeStagedTemplate(dir: string | undefined): Promise<boolean> {
  const { staged } = earlyStart();
  earlyStart().staged = undefined;
  if (!staged) return false;
  const complete = await staged.ready.catch(() => false);
  const usable =
    complete && dir !== undefined && resolve(dir) === staged.target && !existsSync(join(dir, "PG_VERSION"));
  if (usable)
    for (const entry of readdirSync(staged.staging)) renameSync(join(staged.staging, entry), join(dir, entry));
  rmSync(staged.staging, { recursive: true, force: true });
  return usable;
}
