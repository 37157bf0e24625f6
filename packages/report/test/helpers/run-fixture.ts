import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type ReelsmithClient } from "@reelsmith/core";
import { type RunOptions, type RunResult, runPipeline } from "@reelsmith/runner";
import { type Simulator, startSimulator } from "@reelsmith/simulator";

/** A simulator on loopback with a fast clock, a client for it and scratch directories. */
export interface FixtureService {
  simulator: Simulator;
  client: ReelsmithClient;
  root: string;
  run(pipeline: string, options?: RunOptions): Promise<RunResult>;
  close(): Promise<void>;
}

export const fixture = (name: string) => join(import.meta.dirname, "..", "fixtures", name);

export async function startFixtureService(
  options: { timeScale?: number; faults?: string; profile?: Record<string, unknown> } = {},
): Promise<FixtureService> {
  const simulator = await startSimulator({ timeScale: 0.02, ...options });
  const client = createClient({
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    pollIntervalMs: 20,
    retryBaseDelayMs: 5,
    retryMaxBackoffMs: 20,
    maxRetries: 4,
  });
  const root = mkdtempSync(join(tmpdir(), "reelsmith-report-"));
  return {
    simulator,
    client,
    root,
    run: (pipeline, options = {}) =>
      runPipeline(pipeline, {
        client,
        runsRoot: join(root, "runs"),
        cacheDir: join(root, "cache"),
        cache: false,
        ...options,
      }),
    close: () => simulator.close(),
  };
}
