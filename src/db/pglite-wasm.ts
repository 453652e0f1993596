import type { PGliteOptions } from "@electric-sql/pglite";

/**
 * PGlite's WebAssembly (9 MB) compiled ahead: `npm start` (tools/start.mjs) starts compiling it on V8's background
 * threads before it loads the server bundle, so the compile overlaps the ~2 s of module loading on the main thread
 * instead of following it (cold start, issue 18). The promise is handed over under a global symbol because
 * tools/start.mjs is plain JavaScript that cannot import this module. Without it (tests, `npm run dev`, PostgreSQL),
 * PGlite compiles its module itself as before.
 */
type WasmModule = NonNullable<PGliteOptions["pgliteWasmModule"]>;

export const EARLY_PGLITE_WASM = Symbol.for("freezone.pgliteWasm");

/** The module compiled ahead, if `npm start` began one and it succeeded; otherwise undefined. */
export async function earlyPgliteWasm(): Promise<WasmModule | undefined> {
  const early = (globalThis as Record<symbol, unknown>)[EARLY_PGLITE_WASM] as
    | Promise<WasmModule | undefined>
    | undefined;
  if (!early) return undefined;
  delete (globalThis as Record<symbol, unknown>)[EARLY_PGLITE_WASM]; // one database per process takes it
  return early.catch(() => undefined);
}
