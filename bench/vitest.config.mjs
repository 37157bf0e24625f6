import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.mjs"],
    // Each script runs whole, in a process of its own, on a machine that may be busy.
    testTimeout: 180_000,
  },
});
