import { randomBytes } from "node:crypto";
import { defineConfig } from "vitest/config";

// One id per `npm test` run: its PostgreSQL schemas are named after it (test/support/global-setup.ts).
process.env["FZ_TEST_RUN"] ??= randomBytes(4).toString("hex");

/**
 * Two projects (docs/testing.md):
 * - `pure`: files named `*.pure.test.ts`, which never open the shared test database (domain rules, codegen, spec
 *   diff, SDK runtime, tools, processes started on a PGlite of their own). Their result does not depend on
 *   DATABASE_URL, so CI runs them once, in the PGlite pass.
 * - `db`: every other test file, run against the worker's database: embedded PGlite, or with DATABASE_URL a
 *   PostgreSQL schema per worker.
 * The pure project sets FZ_TEST_PURE, under which test/support/database.ts refuses to open the database.
 *
 * One PGlite (or one PostgreSQL schema) per worker, shared by the files that worker runs: `isolate: false` keeps the
 * module-level database alive between files; each file resets the data. Workers: one per core (VITEST_MAX_WORKERS
 * or --maxWorkers override it).
 */
const PURE = "test/**/*.pure.test.ts";

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    env: { FZ_TEST_RUN: process.env["FZ_TEST_RUN"] },
    exclude: ["test/heavy/**", "node_modules/**"],
    pool: "forks",
    isolate: false,
    maxWorkers: process.env["VITEST_MAX_WORKERS"] ?? "100%",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { hooks: "stack" },
    projects: [
      { extends: true, test: { name: "pure", include: [PURE], env: { FZ_TEST_PURE: "1" } } },
      { extends: true, test: { name: "db", include: ["test/**/*.test.ts"], exclude: [PURE, "test/heavy/**"] } },
    ],
  },
});
