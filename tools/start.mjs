// `npm start`: rebuilds dist/ when an input changed since the last build (tools/build.mjs; a check of a few
// milliseconds), then runs the compiled server in this same process, with source maps for stack traces.
import { pathToFileURL } from "node:url";
import { build, DIST, isStale, ROOT } from "./build.mjs";
import { withBuildLock } from "./build-lock.mjs";

if (isStale()) await withBuildLock(ROOT, async () => isStale() && (await build()));
process.setSourceMapsEnabled(true);
await import(pathToFileURL(`${DIST}/main.js`).href);
