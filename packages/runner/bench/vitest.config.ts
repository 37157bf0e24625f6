import { defineConfig } from "vitest/config";

/** `npx vitest run -c bench/vitest.config.ts`: runs the benchmarks (not part of `pnpm test`). */
export default defineConfig({
  test: {
    include: ["bench/**/*.bench-run.ts"],
    testTimeout: 600_000,
  },
});
