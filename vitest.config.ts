import { randomBytes } from "node:crypto";
import { defineConfig } from "vitest/config";

// One id per `npm test` run: its PostgreSQL schemas are named after it (test/support/global-setup.ts).
process.env["FZ_TEST_RUN"] ??= randomBytes(4).toString("hex");

// One PGlite (or one PostgreSQL schema) per worker, shared by the files that worker runs:
// `isolate: false` keeps the module-level database alive between files; each file resets the data.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    env: { FZ_TEST_RUN: process.env["FZ_TEST_RUN"] },
    exclude: ["test/heavy/**", "node_modules/**"],
    pool: "forks",
    isolate: false,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { hooks: "stack" },
  },
});
