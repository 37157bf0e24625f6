import { existsSync } from "node:fs";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followRun, submitRun } from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { type Scenario, startScenario, storyboard, waitFor } from "./helpers/scenario.js";
import { stopWorker } from "./helpers/workers.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await startTestDatabase();
});
afterAll(async () => {
  await database?.stop();
});

describe("many workers on one database", () => {
  let scenario: Scenario | undefined;
  afterAll(async () => {
    await scenario?.close();
  });

  it("3 workers, 24 scenes, 4 videos in flight account-wide: never more at the service, each scene once, the final video whole", async () => {
    // A 1 s clip takes ~0.6 s here: long enough that the 3 workers together want more than 4.
    scenario = await startScenario(database.url, 3, { timeScale: 0.25 });
    const { coordinator, simulator } = scenario;
    const { runId } = await submitRun(coordinator, {
      pipeline: storyboard,
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: scenario.artifacts,
      slots: { video: 4 },
      // At most 2 per worker: the limit of 4 can only be reached by workers together.
      workerConcurrency: 2,
    });
    const result = await followRun(coordinator, runId);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = simulator.stats();
    expect(stats.peakConcurrentJobs).toBeLessThanOrEqual(4);
    expect(stats.peakConcurrentJobs).toBeGreaterThan(1);
    expect(stats.videoJobs.created).toBe(24);
    expect(stats.requests["POST /v1/videos"]?.["200"]).toBe(24);
    const scenes = result.outputs.scenes as unknown[];
    expect(scenes).toHaveLength(24);
    const clips = result.steps.clips?.outputs as { file: string; duration: number }[];
    expect(clips).toHaveLength(24);
    for (const clip of clips) expect(existsSync(clip.file)).toBe(true);
    const final = await probe(String(result.outputs.video));
    expect(final.duration).toBeCloseTo(24, 0);
    // The work was spread: more than one worker ran units of this run.
    const units = await coordinator.dbos.listWorkflows({
      workflow_id_prefix: `${runId}:1:clips:`,
      loadInput: false,
      loadOutput: false,
    });
    expect(units).toHaveLength(24);
    expect(new Set(units.map((unit) => unit.executorId)).size).toBeGreaterThan(1);
  });
});

describe("a worker killed with jobs in flight", () => {
  let scenario: Scenario | undefined;
  afterAll(async () => {
    await scenario?.close();
  });

  it("kill -9 of a worker holding submitted jobs: the others finish the run, no job twice, none lost", async () => {
    // Jobs take ~2.5 s, so the killed worker surely holds submitted, unfinished jobs.
    scenario = await startScenario(database.url, 3, { timeScale: 1 });
    const { coordinator, simulator, workers } = scenario;
    const { runId } = await submitRun(coordinator, {
      pipeline: storyboard,
      inputs: { scenes: 8 },
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: scenario.artifacts,
      slots: { video: 6 },
    });
    const following = followRun(coordinator, runId);
    // Wait for a worker that runs a clip unit whose job id is already journaled.
    const victim = await waitFor(async () => {
      const running = await coordinator.dbos.listWorkflows({
        workflow_id_prefix: `${runId}:1:clips:`,
        status: "PENDING",
        loadInput: false,
        loadOutput: false,
      });
      const records = await coordinator.store.journalRecords(runId);
      const submitted = new Set(
        records
          .filter((r) => r.type === "fact" && r.name === "video.submitted")
          .map((r) => `${runId}:1:clips:${r.index}`),
      );
      const holding = running.find((unit) => submitted.has(unit.workflowID));
      return workers.find((worker) => worker.executorId === holding?.executorId);
    }, "a worker holding a submitted job");
    const held = (
      await coordinator.dbos.listWorkflows({
        workflow_id_prefix: `${runId}:1:clips:`,
        status: "PENDING",
        executorId: victim.executorId,
        loadInput: false,
        loadOutput: false,
      })
    ).map((unit) => unit.workflowID);
    await stopWorker(victim, "SIGKILL");

    const result = await following;
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = simulator.stats();
    expect(stats.videoJobs.created).toBe(8);
    const clips = result.steps.clips?.outputs as { file: string; id: string }[];
    expect(clips).toHaveLength(8);
    expect(new Set(clips.map((clip) => clip.id)).size).toBe(8);
    for (const clip of clips) expect(existsSync(clip.file)).toBe(true);
    expect((await probe(String(result.outputs.video))).duration).toBeCloseTo(8, 0);
    // The killed worker's units were finished by the others.
    const finished = await coordinator.dbos.listWorkflows({
      workflowIDs: held,
      loadInput: false,
      loadOutput: false,
    });
    expect(held.length).toBeGreaterThan(0);
    for (const unit of finished) {
      expect(unit.status).toBe("SUCCESS");
      expect(unit.executorId).not.toBe(victim.executorId);
    }
  });
});
