import type { GetWorkflowsInput, WorkflowStatus } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelRun, followRun, submitRun } from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { jobPrompts, type Scenario, startScenario, waitFor } from "./helpers/scenario.js";

/** `count` one-second clips, no chat: the run is its clip units and nothing else. */
const clips = (name: string, count: number) => ({
  name,
  defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" } },
  steps: [
    {
      id: "clips",
      for_each: Array.from({ length: count }, (_, i) => i),
      video: { prompt: `${name} clip \${{ item }}` },
    },
  ],
});

let database: TestDatabase;
let scenario: Scenario;

beforeAll(async () => {
  database = await startTestDatabase();
  // A clip takes ~0.5 s: units complete one after the other while a cancel lands.
  scenario = await startScenario(database.url, 2, { timeScale: 0.2 });
});

afterAll(async () => {
  await scenario?.close();
  await database?.stop();
});

async function workflows(
  prefix: string,
  status?: GetWorkflowsInput["status"],
): Promise<WorkflowStatus[]> {
  return scenario.coordinator.dbos.listWorkflows({
    workflow_id_prefix: prefix,
    ...(status ? { status } : {}),
    loadInput: false,
    loadOutput: false,
  });
}

/**
 * Cancels the run once `placed()` says the moment has come (read from the database), then
 * checks the one rule: a cancel recorded before the run's end ends it `cancelled` — in the
 * runs table, in the journal's `run.end`, and for whoever follows it — and one that came
 * after finds it ended; either way nothing is submitted once the cancel is recorded.
 */
async function cancelWhen(
  name: string,
  count: number,
  maxVideos: number,
  placed: (runId: string) => Promise<boolean>,
) {
  const { coordinator, simulator, artifacts } = scenario;
  const { runId } = await submitRun(coordinator, {
    pipeline: clips(name, count),
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    artifacts,
    slots: { video: maxVideos },
    // Its own account, so that the limit is this run's whatever ran before.
    account: name,
  });
  const following = followRun(coordinator, runId);
  await waitFor(
    async () => ((await placed(runId)) ? true : undefined),
    `${name}: the moment to cancel`,
    180_000,
  );
  const { alreadyEnded } = await cancelRun(coordinator, runId);
  const submittedAtCancel = await submittedOf(name);
  const followed = await following;
  const run = await coordinator.store.getRun(runId);
  const records = await coordinator.store.journalRecords(runId);
  const ends = records.filter((record) => record.type === "run.end");
  expect(ends).toHaveLength(1);
  expect(ends[0]).toMatchObject({ status: run?.status });
  expect(followed.status).toBe(run?.status);
  if (alreadyEnded) expect(run?.status).not.toBe("cancelled");
  else expect(run?.status).toBe("cancelled");
  await waitFor(
    async () => (simulator.stats().jobsInFlight === 0 ? true : undefined),
    "jobs at the service to end",
  );
  // Nothing admitted once the cancel was recorded: the count stood still since.
  expect(await submittedOf(name)).toBe(submittedAtCancel);
  return { runId, alreadyEnded, status: run?.status };
}

/** The video jobs the simulator made for the run named `name`. */
async function submittedOf(name: string): Promise<number> {
  const prompts = await jobPrompts(scenario.simulator);
  return prompts.filter((prompt) => prompt.startsWith(`${name} clip `)).length;
}

describe("cancel races", { timeout: 300_000 }, () => {
  it("a cancel that lands while units are completing ends the run cancelled", async () => {
    const result = await cancelWhen("completing", 8, 2, async (runId) => {
      // Some clip units done, others still running or waiting.
      const done = await workflows(`${runId}:1:clips:`, "SUCCESS");
      return done.length >= 1 && done.length < 8;
    });
    expect(result.alreadyEnded).toBe(false);
    expect(result.status).toBe("cancelled");
  });

  it("a cancel that lands while slots are waiting ends the run cancelled", async () => {
    const result = await cancelWhen("waiting", 6, 1, async (runId) => {
      // One slot granted, at least one unit waiting in the queue for its slot.
      const waiting = await workflows(`slot:${runId}:1:clips:`, "ENQUEUED");
      return waiting.length >= 1;
    });
    expect(result.alreadyEnded).toBe(false);
    expect(result.status).toBe("cancelled");
  });

  it("a cancel racing the run's very end: cancelled when recorded first, else the run's own end stands", async () => {
    // The last unit has completed: the run ends at any moment now, before or after the cancel.
    for (let round = 0; round < 4; round++) {
      const name = `ending-${round}`;
      await cancelWhen(name, 2, 2, async (runId) => {
        const done = await workflows(`${runId}:1:clips:`, "SUCCESS");
        return done.length === 2;
      });
    }
  });
});
