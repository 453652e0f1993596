// Compiles the server for `npm start` into dist/ (git-ignored): run by `npm run build`, by `prepare` at
// `npm ci`/`npm install`, and by tools/start.mjs when the build is stale. Plain JavaScript, so that checking
// staleness costs no TypeScript loader (Node 20 cannot run .ts by itself).
//
//   dist/main.js (+ .map)        src/main.ts bundled by esbuild; packages stay external (node_modules)
//   dist/migrations/*.js         each migration on its own: MikroORM finds them in the folder next to the code
//                                (src/db/orm.ts resolves `./migrations` from its own module, i.e. dist/ once bundled)
//   dist/pglite-template/        a PGlite data directory with every migration applied: a fresh data directory
//                                starts as a copy of it instead of running initdb and the migrations (src/db/orm.ts)
//   dist/console/                the web console (console/, built by Vite: index.html and hashed assets), served at
//                                /console by src/app/console.ts
//   dist/.build-stamp            written last; a build is stale when any input is newer than it
//
// Files read at run time (generated/openrpc, generated/mcp-tools.json, contracts/templates) are not copied: they are
// found from the repository root (src/project-root.ts), which is one level above dist/ as it is above src/.
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { requireCommonJs } from "./build-require.mjs";

export const ROOT = join(import.meta.dirname, "..");
export const DIST = join(ROOT, "dist");
const STAMP = join(DIST, ".build-stamp");
const MIGRATIONS = join(ROOT, "src", "db", "migrations");

/** What the build reads: a file under these newer than the stamp makes the build stale. */
const INPUTS = ["src", "generated", "contracts", "console", "package.json", "package-lock.json", "tools/build.mjs"];

/** Whether any input is newer than `since` (ms); stops at the first one. */
function newerThan(path, since) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return false;
  if (stat.mtimeMs > since) return true;
  if (!stat.isDirectory()) return false;
  for (const entry of readdirSync(path)) if (newerThan(join(path, entry), since)) return true;
  return false;
}

/**
 * Whether dist/ must be rebuilt: no stamp, or a file (or a folder: added, removed, renamed files) under the inputs
 * modified after the stamp. About 550 stats: a few milliseconds (`root` is for tests).
 */
export function isStale(root = ROOT) {
  const stamp = statSync(join(root, "dist", ".build-stamp"), { throwIfNoEntry: false });
  if (!stamp) return true;
  return INPUTS.some((input) => newerThan(join(root, input), stamp.mtimeMs));
}

/**
 * Builds the web console with Vite (console/vite.config.ts) into `outDir` (dist/console/ unless told): about 2 s.
 * Tests call it when dist/console/ is missing or older than console/ (test/console/support.ts).
 */
export async function buildConsole({ outDir = join(DIST, "console") } = {}) {
  const { build: vite } = await import("vite");
  // Vite sets process.env.NODE_ENV ("production" for a build); `npm start` runs the server in this process right
  // after, where NODE_ENV=production would demand ENCRYPTION_KEY: the environment is given back as it was.
  const nodeEnv = process.env.NODE_ENV;
  try {
    await vite({
      configFile: join(ROOT, "console", "vite.config.ts"),
      logLevel: "warn",
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** Builds dist/ from scratch; returns the milliseconds it took. */
export async function build({ log = console.error } = {}) {
  const started = performance.now();
  // The stamp carries the time the build started: an input saved during the build leaves it stale.
  const startedAt = new Date();
  const { build: esbuild } = await import("esbuild");
  rmSync(DIST, { recursive: true, force: true });
  const migrations = readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .map((name) => ({ in: join(MIGRATIONS, name), out: `migrations/${name.slice(0, -3)}` }));
  await esbuild({
    entryPoints: [
      { in: join(ROOT, "src", "main.ts"), out: "main" },
      { in: join(ROOT, "src", "db", "pglite-template.ts"), out: "pglite-template" },
      ...migrations,
    ],
    outdir: DIST,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    sourcesContent: false, // the sources are in the repository; a smaller map loads faster at start
    // generated/validators.cjs require()s ajv's runtime helpers: give the ESM bundle a real `require`.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
    },
    plugins: [requireCommonJs(ROOT)],
    logLevel: "warning",
  });
  const { writePgliteTemplate } = await import(pathToFileURL(join(DIST, "pglite-template.js")).href);
  await writePgliteTemplate();
  await buildConsole();
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
  utimesSync(STAMP, startedAt, startedAt);
  const ms = Math.round(performance.now() - started);
  log(
    `build: ${relative(ROOT, DIST)}/ written in ${ms} ms (${migrations.length} migrations, PGlite template, console)`,
  );
  return ms;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const { withBuildLock } = await import("./build-lock.mjs");
  const ifStale = process.argv.includes("--if-stale");
  await withBuildLock(ROOT, async () => (!ifStale || isStale()) && (await build()));
}
