import { defineConfig } from "vitest/config";

// One PGlite (or one PostgreSQL schema) per worker, shared by the files that worker runs:
// `isolate: false` keeps the module-level database alive between files; each file resets the data.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/heavy/**", "node_modules/**"],
    pool: "forks",
    isolate: false,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { hooks: "stack" },
  },
});
