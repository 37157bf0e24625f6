import { existsSync } from "node:fs";
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

it("the database restarted mid-run: workers reconnect and finish, no job twice", async (test) => {
  const restart = database.restart;
  if (!restart) {
    test.skip("REELSMITH_TEST_DATABASE_URL's server cannot be restarted from a test");
    return;
  }
  // Jobs take ~2.5 s: the restart surely happens while jobs are in flight.
  scenario = await startScenario(database.url, 2, { timeScale: 1 });
  const { coordinator, simulator } = scenario;
  const { runId } = await submitRun(coordinator, {
    pipeline: storyboard,
    inputs: { scenes: 6 },
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    artifacts: scenario.artifacts,
    slots: { video: 3 },
  });
  const following = followRun(coordinator, runId);
  await waitFor(async () => {
    const records = await coordinator.store.journalRecords(runId);
    return records.some((r) => r.type === "fact" && r.name === "video.submitted") || undefined;
  }, "a submitted job");
  await restart();
  const result = await following;
  expect(result.error).toBeUndefined();
  expect(result.status).toBe("succeeded");
  expect(simulator.stats().videoJobs.created).toBe(6);
  const clips = result.steps.clips?.outputs as { file: string }[];
  expect(clips).toHaveLength(6);
  for (const clip of clips) expect(existsSync(clip.file)).toBe(true);
  expect(existsSync(String(result.outputs.video))).toBe(true);
});
