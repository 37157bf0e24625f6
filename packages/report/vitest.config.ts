import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A browser launch and a real pipeline run per file; generous on a loaded machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
