import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    // Each file starts its own PostgreSQL and worker processes: one file at a time on 2 cores.
    fileParallelism: false,
  },
});
