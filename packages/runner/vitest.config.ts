import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 180_000, // runs against the simulator and ffmpeg on a shared, loaded machine
    hookTimeout: 180_000,
  },
});
