import { ledgerOf } from "@reelsmith/runner/runs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { followRun, submitRun } from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { type Scenario, startScenario } from "./helpers/scenario.js";

/** Two clips asked for with the same request: a listing cannot tell their jobs apart. */
const twins = {
  name: "twins",
  steps: [
    {
      id: "clips",
      for_each: [0, 1],
      video: {
        model: "reel-video-2-lite",
        seconds: 1,
        size: "720x480",
        prompt: "the same shot of a paper boat",
      },
    },
  ],
};

let database: TestDatabase;
let scenario: Scenario | undefined;
beforeAll(async () => {
  database = await startTestDatabase();
});
afterAll(async () => {
  await scenario?.close();
  await database?.stop();
});

it("a unit whose submission's answer was lost adopts its own job by listing, never the job another unit of the run holds", async () => {
  // The second submission makes its job and loses the answer; the service ignores
  // Idempotency-Key, so the unit settles it from the service's list, where the first unit's
  // job (same model, prompt, length and size, made just before) is listed first.
  scenario = await startScenario(database.url, 1, {
    timeScale: 0.2,
    faults: "drop@videos.create:#2",
    idempotencyKeys: false,
  });
  const { coordinator, simulator } = scenario;
  const { runId } = await submitRun(coordinator, {
    pipeline: twins,
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    artifacts: scenario.artifacts,
    cache: false,
    // One clip at a time: the first unit's job is journaled before the second is sent.
    slots: { video: 1 },
  });
  const result = await followRun(coordinator, runId);
  expect(result.error).toBeUndefined();
  expect(result.status).toBe("succeeded");
  const stats = simulator.stats();
  expect(stats.faultsInjected.drop).toBe(1);
  expect(stats.videoJobs.created).toBe(2);
  const journal = await coordinator.store.journalRecords(runId);
  const submitted = journal.flatMap((record) =>
    record.type === "fact" && record.name === "video.submitted"
      ? [record.data as { jobId: string; adopted?: string }]
      : [],
  );
  expect(submitted.map((fact) => fact.adopted ?? "sent").sort()).toEqual(["list", "sent"]);
  // Each clip its own job: the one adopted is not the first unit's.
  expect(new Set(submitted.map((fact) => fact.jobId)).size).toBe(2);
  const ledger = ledgerOf(journal);
  expect(ledger.total.credits).toBe(stats.creditsCharged);
  expect(ledger.total.made.videos).toBe(2);
});
