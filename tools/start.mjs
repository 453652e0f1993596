// `npm start`: rebuilds dist/ when an input changed since the last build (tools/build.mjs; a check of a few
// milliseconds), then runs the compiled server in this same process, with source maps for stack traces.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, DIST, isStale, ROOT } from "./build.mjs";
import { withBuildLock } from "./build-lock.mjs";

// On the embedded database, PGlite's WebAssembly compiles on V8's background threads while the bundle loads
// (src/db/pglite-wasm.ts takes the promise).
if (!process.env.DATABASE_URL) globalThis[Symbol.for("freezone.pgliteWasm")] = compilePgliteWasm();

if (isStale()) await withBuildLock(ROOT, async () => isStale() && (await build()));
process.setSourceMapsEnabled(true);
await import(pathToFileURL(`${DIST}/main.js`).href);

/** PGlite's pglite.wasm, compiled; undefined when it cannot be (PGlite then compiles it itself). */
async function compilePgliteWasm() {
  try {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    return await WebAssembly.compile(await readFile(join(dirname(entry), "pglite.wasm")));
  } catch {
    return undefined;
  }
}
