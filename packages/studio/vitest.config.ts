import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A browser launch and real pipeline runs per file; generous on a loaded machine.
    testTimeout: 180_000,
    // One file at a time: the first launch unpacks Chromium to /tmp.
    fileParallelism: false,
    hookTimeout: 180_000,
  },
});
