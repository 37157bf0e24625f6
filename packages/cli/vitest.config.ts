import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 180_000, // end-to-end tests spawn the CLI and run ffmpeg on a shared machine
    hookTimeout: 60_000,
  },
});
