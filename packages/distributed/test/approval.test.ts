import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideRun, followRun, runDetail, submitRun } from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { type Scenario, startScenario, waitFor } from "./helpers/scenario.js";
import { spawnWorker, stopWorker } from "./helpers/workers.js";

const gated = join(import.meta.dirname, "fixtures", "gated.yaml");
const SCENES = 3;

let database: TestDatabase;
beforeAll(async () => {
  database = await startTestDatabase();
});
afterAll(async () => {
  await database?.stop();
});

describe("a distributed run at a gate", () => {
  let scenario: Scenario | undefined;
  afterAll(async () => {
    await scenario?.close();
  });

  it("waits durably holding no unit, outlives a kill -9 of its worker, and goes on with exactly one job per scene once approved from elsewhere", async () => {
    scenario = await startScenario(database.url, 1, { timeScale: 0.1 });
    const { coordinator, simulator } = scenario;
    const [first] = scenario.workers;
    if (!first) throw new Error("no worker started");
    const { runId } = await submitRun(coordinator, {
      pipeline: gated,
      inputs: { scenes: SCENES },
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: scenario.artifacts,
    });
    const stopped = await followRun(coordinator, runId);
    expect(stopped.status).toBe("waiting");
    expect(simulator.stats().videoJobs.created).toBe(0);

    const waiting = await runDetail(coordinator, runId);
    expect(waiting?.status).toBe("waiting");
    expect(waiting?.gates).toEqual([
      expect.objectContaining({
        step: "review",
        state: "waiting",
        message: "Approve the scenes before the clips are paid for.",
      }),
    ]);
    // Nothing of the run holds a place: its workflow and every unit of it have ended, and
    // only its wait is pending, on the approvals queue, on the worker that ran it.
    expect(waiting?.units.PENDING ?? 0).toBe(0);
    expect(waiting?.units.ENQUEUED ?? 0).toBe(0);
    const [run] = await coordinator.dbos.listWorkflows({ workflowIDs: [runId] });
    expect(run?.status).toBe("SUCCESS");
    const waitId = `approval:${runId}:1`;
    // Enqueued before the run ended; taken by the worker at its next poll of the queue.
    const wait = await waitFor(async () => {
      const [status] = await coordinator.dbos.listWorkflows({ workflowIDs: [waitId] });
      return status?.status === "ENQUEUED" ? undefined : status;
    }, "the wait to be taken from its queue");
    expect(wait).toMatchObject({
      status: "PENDING",
      queueName: "reelsmith-approvals",
      executorId: first.executorId,
    });

    // The worker dies while the run waits; another takes its place.
    await stopWorker(first, "SIGKILL");
    const second = await spawnWorker(database.url, simulator.apiKey);
    scenario.workers.push(second);

    // The decision, from this process (neither worker), while the wait is being recovered.
    const recorded = await decideRun(coordinator, runId, {
      approved: true,
      by: "ana",
      note: "scenes read",
    });
    expect(recorded).toMatchObject({ step: "review", attempt: 1 });
    await waitFor(
      async () => ((await coordinator.store.getRun(runId))?.attempt === 2 ? true : undefined),
      "the run to go on with its next attempt",
    );
    const done = await followRun(coordinator, runId);
    expect(done.error).toBeUndefined();
    expect(done.status).toBe("succeeded");
    expect(done.outputs.approved_by).toBe("ana");
    expect(simulator.stats().videoJobs.created).toBe(SCENES);
    // The wait ended on the worker that recovered it.
    const [ended] = await coordinator.dbos.listWorkflows({ workflowIDs: [waitId] });
    expect(ended).toMatchObject({ status: "SUCCESS", executorId: second.executorId });
    const detail = await runDetail(coordinator, runId);
    expect(detail?.gates).toEqual([
      expect.objectContaining({
        step: "review",
        state: "approved",
        decision: { approved: true, by: "ana", at: recorded.decision.at, note: "scenes read" },
      }),
    ]);
  });

  it("refuses a decision on a run that waits at no gate, and ends a rejected run rejected with no job", async () => {
    if (!scenario) throw new Error("no scenario");
    const { coordinator, simulator } = scenario;
    const before = simulator.stats().videoJobs.created;
    const { runId } = await submitRun(coordinator, {
      pipeline: gated,
      inputs: { scenes: 2 },
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: scenario.artifacts,
    });
    expect((await followRun(coordinator, runId)).status).toBe("waiting");
    await expect(
      decideRun(coordinator, runId, { step: "clips", approved: false, by: "bo" }),
    ).rejects.toMatchObject({ code: "unknown_gate", waiting: ["review"] });
    await decideRun(coordinator, runId, { approved: false, by: "bo", note: "too dark" });
    await waitFor(
      async () => ((await coordinator.store.getRun(runId))?.attempt === 2 ? true : undefined),
      "the run to go on with its next attempt",
    );
    const ended = await followRun(coordinator, runId);
    expect(ended.status).toBe("rejected");
    expect(ended.error).toMatchObject({ code: "approval_rejected" });
    expect(simulator.stats().videoJobs.created).toBe(before);
    await expect(decideRun(coordinator, runId, { approved: true, by: "bo" })).rejects.toMatchObject(
      { code: "not_waiting" },
    );
  });
});
