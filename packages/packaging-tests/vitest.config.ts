import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    // Installing with npm and running ffmpeg through the simulator on a shared machine.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
