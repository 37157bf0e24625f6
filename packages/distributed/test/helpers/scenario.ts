import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@reelsmith/core";
import { type Simulator, type SimulatorOptions, startSimulator } from "@reelsmith/simulator";
import { type Coordinator, connect } from "../../src/index.js";
import { spawnWorker, stopWorker, type WorkerProcess } from "./workers.js";

/** The storyboard fixture: chat → N clips → one joined video. */
export const storyboard = join(import.meta.dirname, "..", "fixtures", "storyboard.yaml");

/** A simulator, N worker processes and a coordinator on one database. */
export interface Scenario {
  simulator: Simulator;
  workers: WorkerProcess[];
  coordinator: Coordinator;
  artifacts: string;
  close(): Promise<void>;
}

/**
 * Starts a simulator and `workers` worker processes on the database (`workerEnv` is added to
 * their environment).
 * @example const scenario = await startScenario(db.url, 3, { timeScale: 0.2 });
 */
export async function startScenario(
  databaseUrl: string,
  workers: number,
  simulatorOptions: SimulatorOptions = {},
  workerEnv: Record<string, string> = {},
): Promise<Scenario> {
  const simulator = await startSimulator(simulatorOptions);
  const coordinator = await connect(databaseUrl);
  const spawned = Array.from({ length: workers }, () =>
    spawnWorker(databaseUrl, simulator.apiKey, 8, workerEnv),
  );
  const settled = await Promise.allSettled(spawned);
  const started = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) {
    // No worker of a half-started scenario may outlive it (it would take later tests' work).
    await Promise.all(started.map((worker) => stopWorker(worker, "SIGKILL")));
    await coordinator.close();
    await simulator.close();
    throw (failed as PromiseRejectedResult).reason;
  }
  return {
    simulator,
    workers: started,
    coordinator,
    artifacts: mkdtempSync(join(tmpdir(), "reelsmith-artifacts-")),
    async close() {
      await Promise.all(started.map((worker) => stopWorker(worker)));
      await coordinator.close();
      await simulator.close();
    },
  };
}

/** Polls `probe` until it gives a value (the state awaited), or fails after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The prompts of every video job the simulator made, from its own job list (GET /v1/videos). */
export async function jobPrompts(simulator: Simulator): Promise<string[]> {
  const client = createClient({ baseURL: simulator.url, apiKey: simulator.apiKey });
  const prompts: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.videos.list({ limit: 100, ...(after ? { after } : {}) });
    prompts.push(...page.data.map((job) => job.prompt));
    if (!page.has_more || !page.last_id) return prompts;
    after = page.last_id;
  }
}
