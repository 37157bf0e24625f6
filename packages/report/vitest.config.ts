import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A browser launch and a real pipeline run per file; generous on a loaded machine.
    testTimeout: 120_000,
    // One file at a time: on a fresh machine the first launch unpacks Chromium to /tmp, and
    // two files unpacking it at once would race; each file also runs real pipelines.
    fileParallelism: false,
    hookTimeout: 180_000,
  },
});
