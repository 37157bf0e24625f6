import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The modules keep no global state, so test files may share one module graph: much
    // faster start-up on a busy machine.
    isolate: false,
  },
});
