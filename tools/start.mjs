// `npm start`: rebuilds dist/ when an input changed since the last build (tools/build.mjs; a check of a few
// milliseconds), then runs the compiled server in this same process, with source maps for stack traces. On the
// embedded database, PGlite's WebAssembly compile and a fresh data directory's copy begin first, beside the bundle's
// loading (tools/pglite-early.mjs).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, DIST, isStale, ROOT } from "./build.mjs";
import { withBuildLock } from "./build-lock.mjs";
import { beginPgliteStart } from "./pglite-early.mjs";

if (isStale()) await withBuildLock(ROOT, async () => isStale() && (await build()));
beginPgliteStart(join(DIST, "pglite-template"));
process.setSourceMapsEnabled(true);
await import(pathToFileURL(`${DIST}/main.js`).href);
