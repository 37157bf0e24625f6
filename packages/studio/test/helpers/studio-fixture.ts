import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type ReelsmithClient } from "@reelsmith/core";
import { type RunOptions, type RunResult, runPipeline } from "@reelsmith/runner";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { type Studio, startStudio } from "../../src/index.js";

/** A simulator on loopback with a fast clock, runs made against it, and a studio over them. */
export interface StudioFixture {
  simulator: Simulator;
  client: ReelsmithClient;
  root: string;
  runsDir: string;
  studio: Studio;
  run(pipeline: string, options?: RunOptions): Promise<RunResult>;
  close(): Promise<void>;
}

export const example = (...path: string[]) =>
  join(import.meta.dirname, "..", "..", "..", "..", "examples", ...path);

/**
 * Starts the fixture; `beforeSession` is awaited as each studio session opens its service (a
 * test holds a session there to act on it while it is surely going); a `profile` is what the
 * simulator serves and charges.
 */
export async function startStudioFixture(
  options: { beforeSession?: () => Promise<void>; profile?: Record<string, unknown> } = {},
): Promise<StudioFixture> {
  const simulator = await startSimulator({
    timeScale: 0.02,
    ...(options.profile ? { profile: options.profile } : {}),
  });
  const client = createClient({
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    pollIntervalMs: 20,
    retryBaseDelayMs: 5,
    retryMaxBackoffMs: 20,
    maxRetries: 4,
  });
  const root = mkdtempSync(join(tmpdir(), "reelsmith-studio-"));
  const runsDir = join(root, "runs");
  const cacheDir = join(root, "cache");
  // The studio's sessions go on with the same service, as `reelsmith resume` would.
  const studio = await startStudio({
    runsDir,
    by: "reviewer",
    studioHost: {
      openService: async () => {
        await options.beforeSession?.();
        return { options: { client, cache: false, cacheDir }, close: async () => {} };
      },
      secrets: [simulator.apiKey],
    },
  });
  return {
    simulator,
    client,
    root,
    runsDir,
    studio,
    run: (pipeline, options = {}) =>
      runPipeline(pipeline, { client, runsRoot: runsDir, cacheDir, cache: false, ...options }),
    close: async () => {
      await studio.close();
      await simulator.close();
    },
  };
}
