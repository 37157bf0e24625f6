import { ledgerOf } from "@reelsmith/runner/runs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { followRun, submitRun } from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { type Scenario, startScenario, storyboard, waitFor } from "./helpers/scenario.js";
import { spawnWorker, stopWorker, type WorkerProcess } from "./helpers/workers.js";

let database: TestDatabase;
let scenario: Scenario | undefined;
let successor: WorkerProcess | undefined;
beforeAll(async () => {
  database = await startTestDatabase();
});
afterAll(async () => {
  if (successor) await stopWorker(successor);
  await scenario?.close();
  await database?.stop();
});

it("every worker killed while a submission's answer is held by a service that ignores Idempotency-Key: the next worker adopts the job by listing, one job per clip, figures equal to the charges", async () => {
  // The service makes the first job and holds its answer; it ignores Idempotency-Key, so
  // nothing deduplicates a resend.
  scenario = await startScenario(database.url, 1, {
    timeScale: 0.2,
    faults: "stall@videos.create:#1:600000",
    idempotencyKeys: false,
  });
  const { coordinator, simulator, workers } = scenario;
  const { runId } = await submitRun(coordinator, {
    pipeline: storyboard,
    inputs: { scenes: 3 },
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    artifacts: scenario.artifacts,
    slots: { video: 3 },
  });
  const following = followRun(coordinator, runId);
  await waitFor(
    async () => ((simulator.stats().faultsInjected.stall ?? 0) >= 1 ? true : undefined),
    "a submission whose answer the service holds",
  );
  const records = await coordinator.store.journalRecords(runId);
  // The intent was durable before the request left.
  expect(records.some((r) => r.type === "fact" && r.name === "video.intent")).toBe(true);
  for (const worker of workers) await stopWorker(worker, "SIGKILL");
  successor = await spawnWorker(database.url, simulator.apiKey, 8, {});

  const result = await following;
  expect(result.error).toBeUndefined();
  expect(result.status).toBe("succeeded");
  const stats = simulator.stats();
  expect(stats.videoJobs.created).toBe(3);
  const journal = await coordinator.store.journalRecords(runId);
  const adopted = journal.filter(
    (r) =>
      r.type === "fact" &&
      r.name === "video.submitted" &&
      (r.data as { adopted?: string } | undefined)?.adopted === "list",
  );
  expect(adopted.length).toBeGreaterThanOrEqual(1);
  const ledger = ledgerOf(journal);
  expect(ledger.total.credits).toBe(stats.creditsCharged);
  expect(ledger.total.made.videos).toBe(3);
  expect(ledger.total.jobsSubmitted).toBe(3);
});
