import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { followRun, submitRun } from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { type Scenario, startScenario, storyboard, waitFor } from "./helpers/scenario.js";

let database: TestDatabase;
let scenario: Scenario | undefined;
beforeAll(async () => {
  database = await startTestDatabase();
});
afterAll(async () => {
  await scenario?.close();
  await database?.stop();
});

it("PostgreSQL stopped with jobs in flight on 3 workers and started again: no worker is taken for dead, one job per clip at a service that ignores Idempotency-Key, each clip completed once", async (test) => {
  const { stopServer, startServer } = database;
  if (!stopServer || !startServer) {
    test.skip("REELSMITH_TEST_DATABASE_URL's server cannot be stopped from a test");
    return;
  }
  // Jobs take ~2.5 s: the database goes away while every worker holds jobs in flight.
  // A grace of 20 missed heartbeats of 1 s: every worker comes back within it, even on a
  // loaded machine (the database's restart alone took 10 s there), so none may be taken for dead.
  scenario = await startScenario(
    database.url,
    3,
    // It ignores Idempotency-Key: a second submission of any clip would be a second job.
    { timeScale: 1, idempotencyKeys: false },
    { REELSMITH_TEST_MISSED_HEARTBEATS: "20" },
  );
  const { coordinator, simulator } = scenario;
  const { runId } = await submitRun(coordinator, {
    pipeline: storyboard,
    inputs: { scenes: 8 },
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    artifacts: scenario.artifacts,
    slots: { video: 8 },
  });
  const following = followRun(coordinator, runId);
  await waitFor(
    async () => (simulator.stats().videoJobs.created >= 4 ? true : undefined),
    "4 jobs at the service",
  );
  await stopServer();
  // Down for 6 s: the server's restart, not its downtime, starts every worker's grace.
  await sleep(6000);
  await startServer();
  const result = await following;
  expect(result.error).toBeUndefined();
  expect(result.status).toBe("succeeded");
  // The service's own count, once the run has ended: one job per clip.
  expect(simulator.stats().videoJobs.created).toBe(8);
  const records = await coordinator.store.journalRecords(runId);
  const completed = records.filter((r) => r.type === "fact" && r.name === "video.completed");
  expect(completed.map((r) => r.index).sort((a, b) => Number(a) - Number(b))).toEqual([
    0, 1, 2, 3, 4, 5, 6, 7,
  ]);
  // No worker's work was handed over: all three came back by themselves.
  const handedOver = await coordinator.pool.query(
    "SELECT executor_id FROM reelsmith.workers WHERE handed_over_at IS NOT NULL",
  );
  const logs = scenario.workers.map((worker) => `${worker.executorId}:\n${worker.stderr()}`);
  expect(handedOver.rows, logs.join("\n")).toEqual([]);
});
