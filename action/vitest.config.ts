import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 180_000, // the end-to-end test runs the built CLI and ffmpeg on a shared machine
    hookTimeout: 60_000,
  },
});
