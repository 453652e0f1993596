import { defineConfig } from "vitest/config";

// Load, soak and fault tests: outside `npm test` (minutes, or a whole machine's attention). `npm run test:heavy`.
export default defineConfig({
  test: {
    include: ["test/heavy/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
