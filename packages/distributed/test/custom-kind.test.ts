import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtInStepKinds } from "@reelsmith/runner/kinds";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The same kind the runner's own test runs locally: defined in its own folder, nowhere else.
import { shoutKind } from "../../runner/test/fixtures/shout-kind/index.js";
import {
  type Coordinator,
  connect,
  followRun,
  startWorker,
  submitRun,
  type Worker,
} from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";

describe("a step kind defined outside the runner, on the distributed executor", () => {
  let database: TestDatabase;
  let simulator: Simulator;
  let worker: Worker;
  let coordinator: Coordinator;
  beforeAll(async () => {
    database = await startTestDatabase();
    simulator = await startSimulator({ timeScale: 0.05 });
    // The worker runs the kind, as every worker of a pipeline that uses it must.
    worker = await startWorker({
      databaseUrl: database.url,
      apiKey: simulator.apiKey,
      stepKinds: [shoutKind],
    });
    coordinator = await connect(database.url);
  });
  afterAll(async () => {
    await worker?.stop({ graceMs: 0 });
    await coordinator?.close();
    await simulator?.close();
    await database?.stop();
  });

  it("runs its units on the worker's local queue, its outputs read by the steps after it", async () => {
    const { runId } = await submitRun(coordinator, {
      pipeline: {
        name: "shouting",
        steps: [
          { id: "loud", for_each: ["hello", "world"], shout: { text: "${{ item }}", times: 2 } },
          {
            id: "tell",
            chat: { model: "reel-chat-1", prompt: "Repeat: ${{ steps.loud.outputs[0].text }}" },
          },
        ],
        outputs: { first: "${{ steps.loud.outputs[1].text }}" },
      },
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: mkdtempSync(join(tmpdir(), "reelsmith-kind-")),
      stepKinds: [...builtInStepKinds, shoutKind],
    });
    const result = await followRun(coordinator, runId);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    expect(result.outputs.first).toBe("WORLD WORLD");
    // Each item was a unit of its own on the local queue (the kind's queue), run by the worker.
    const units = await coordinator.dbos.listWorkflows({
      workflow_id_prefix: `${runId}:1:loud:`,
      loadInput: false,
      loadOutput: false,
    });
    expect(units.map((unit) => [unit.status, unit.queueName])).toEqual([
      ["SUCCESS", "reelsmith-local"],
      ["SUCCESS", "reelsmith-local"],
    ]);
  });

  it("is refused when submitted without the kind, before anything is stored", async () => {
    await expect(
      submitRun(coordinator, {
        pipeline: { name: "unknown", steps: [{ id: "a", shout: { text: "hi" } }] },
        baseURL: simulator.url,
        artifacts: mkdtempSync(join(tmpdir(), "reelsmith-kind-")),
      }),
    ).rejects.toThrow(/step `a` needs exactly one kind: chat, video, ffmpeg/);
  });
});
