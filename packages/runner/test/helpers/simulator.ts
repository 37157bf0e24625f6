import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type ReelsmithClient } from "@reelsmith/core";
import { type Simulator, type SimulatorOptions, startSimulator } from "@reelsmith/simulator";
import { videoModels } from "@reelsmith/simulator/catalog";
import type { RunEvent } from "../../src/events/run-event.js";
import type { RunOptions } from "../../src/run-options.js";

/** A simulator on loopback with a fast clock, a client for it, and scratch directories. */
export interface TestService {
  simulator: Simulator;
  client: ReelsmithClient;
  root: string;
  /** Run options pointing at the scratch dirs, collecting events into `events`. */
  options(extra?: RunOptions): RunOptions & { events: RunEvent[] };
  close(): Promise<void>;
}

export async function startTestService(options: SimulatorOptions = {}): Promise<TestService> {
  const simulator = await startSimulator({ timeScale: 0.005, ...options });
  const client = createClient({
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    pollIntervalMs: 20,
    retryBaseDelayMs: 5,
    retryMaxBackoffMs: 20,
    maxRetries: 4,
  });
  const root = mkdtempSync(join(tmpdir(), "reelsmith-e2e-"));
  return {
    simulator,
    client,
    root,
    options(extra = {}) {
      const events: RunEvent[] = [];
      const onEvent = extra.onEvent;
      return {
        client,
        runsRoot: join(root, "runs"),
        cacheDir: join(root, "cache"),
        ...extra,
        // The simulator's own video models (unless a test gives its own): their limits are
        // known to the checks, as for the CLI's built-in simulator.
        catalogs: { video_models: videoModels, ...extra.catalogs },
        onEvent: (event: RunEvent) => {
          events.push(event);
          onEvent?.(event);
        },
        events,
      };
    },
    close: () => simulator.close(),
  };
}

/** Every file under a directory (recursively). */
export function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path));
    else if (statSync(path).isFile()) found.push(path);
  }
  return found;
}

/** Files under `dir` whose bytes contain `secret`. */
export function filesContaining(dir: string, secret: string): string[] {
  return filesUnder(dir).filter((file) => readFileSync(file).includes(Buffer.from(secret)));
}

/** The most video jobs in flight at once, from video.submitted → video.downloaded/item.end events. */
export function maxVideosInFlight(events: readonly RunEvent[]): number {
  const open = new Set<string>();
  let max = 0;
  for (const event of events) {
    if (event.type !== "unit.progress") continue;
    if (event.stage === "submitted") open.add(event.job);
    if (event.stage === "status" && (event.status === "completed" || event.status === "failed")) {
      open.delete(event.job);
    }
    max = Math.max(max, open.size);
  }
  return max;
}

/** Count of `POST /v1/videos` answered 200 by the simulator. */
export function videoSubmissions(simulator: Simulator): number {
  return simulator.stats().videoJobs.created;
}
