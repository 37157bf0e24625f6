import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Coordinator,
  connect,
  followRun,
  startWorker,
  submitRun,
  type Worker,
} from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";

/** What a sub-run's run.json says of its end. */
interface RunJson {
  status: string;
  error?: { code?: string; credits?: number; maxCredits?: number };
}

const clips = (count: number, text: string) =>
  `for_each: [${Array.from({ length: count }, (_, i) => i).join(", ")}]
    video: { model: reel-video-2-lite, seconds: 1, size: 720x480, prompt: "${text} \${{ item }}" }`;

const parent = (head: string, needs: string) => `name: parent
${head}steps:
  - id: own
    ${clips(3, "own clip")}
  - id: nested${needs}
    chat:
      model: reel-chat-1
      prompt: "Make clips of: a fox at dawn"
      tool_choice: make_clips
      tools:
        - name: make_clips
          parameters: { type: object, properties: { text: { type: string } }, required: [text] }
          pipeline: ./sub/clips.yaml
`;

/** A pipeline whose chat tool runs the file its `self` input names: a cycle `validate` cannot see. */
const selfCaller = `name: self
inputs:
  text: { type: string, default: a fox }
  self: { type: string, default: self.yaml }
steps:
  - id: ask
    chat:
      model: reel-chat-1
      prompt: "Use the tool on: a fox"
      tool_choice: sub
      tools:
        - name: sub
          parameters: { type: object, properties: { text: { type: string } } }
          pipeline: \${{ inputs.self }}
outputs:
  text: \${{ steps.ask.outputs.text }}
`;

const sub = `name: clips
inputs:
  text: { type: string }
steps:
  - id: clips
    ${clips(2, "${{ inputs.text }}")}
outputs:
  count: \${{ 2 }}
`;

describe("a chat tool's sub-pipeline in a distributed run", () => {
  let database: TestDatabase;
  let simulator: Simulator;
  let worker: Worker;
  let coordinator: Coordinator;
  let root: string;
  beforeAll(async () => {
    database = await startTestDatabase();
    // Clips of ~0.5 s: the run's own clips are still in flight when the tool's start.
    simulator = await startSimulator({ timeScale: 0.2 });
    worker = await startWorker({ databaseUrl: database.url, apiKey: simulator.apiKey });
    coordinator = await connect(database.url);
    root = mkdtempSync(join(tmpdir(), "reelsmith-sub-"));
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub", "clips.yaml"), sub);
  });
  afterAll(async () => {
    await worker?.stop({ graceMs: 0 });
    await coordinator?.close();
    await simulator?.close();
    await database?.stop();
  });

  const submit = async (file: string, text: string, maxVideos: number, depth?: number) => {
    writeFileSync(join(root, file), text);
    const { runId } = await submitRun(coordinator, {
      pipeline: join(root, file),
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts: join(root, "artifacts"),
      slots: { video: maxVideos },
      cache: false,
      ...(depth === undefined ? {} : { depth }),
    });
    return { runId, result: await followRun(coordinator, runId) };
  };

  it("takes the account's video slots: with one slot, one job at a time at the service", async () => {
    const before = simulator.stats().videoJobs.created;
    const { runId, result } = await submit("shared.yaml", parent("", ""), 1);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = simulator.stats();
    expect(stats.videoJobs.created - before).toBe(5);
    expect(stats.peakConcurrentJobs).toBe(1);
    // The chat unit held a slot for each of its sub-pipeline's clips.
    const slots = await coordinator.dbos.listWorkflows({
      workflow_id_prefix: `slot:${runId}:1:nested:`,
      loadInput: false,
      loadOutput: false,
    });
    expect(slots.map((slot) => slot.status)).toEqual(["SUCCESS", "SUCCESS"]);
    // Every job was reserved and settled in the run's budget, the sub-pipeline's included.
    const reservations = await coordinator.pool.query(
      "SELECT state FROM reelsmith.reservations WHERE run_id = $1",
      [runId],
    );
    expect(reservations.rows.map((row) => row.state)).toEqual(Array(5).fill("spent"));
  });

  it("spends from the run's budget: past max_credits its clips are refused before submission", async () => {
    const before = simulator.stats().videoJobs.created;
    // The 3 own clips cost 12 credits: the sub-pipeline's first clip would pass 12.
    const { result } = await submit(
      "budget.yaml",
      parent("max_credits: 12\n", "\n    needs: [own]"),
      4,
    );
    expect(simulator.stats().videoJobs.created - before).toBe(3);
    // Its tool's model was told; the run still ends on its budget, as a local run does.
    expect(result.status).toBe("budget_reached");
    expect(result.error?.code).toBe("budget_reached");
  });

  it("a sub-run whose refused clips are tolerated still ends on the run's max_credits, as in a local run", async () => {
    // Its clips may fail (continue_on_error): only the budget's own rule ends it on its budget,
    // and the run was submitted without a maximum, so the unit's is the pipeline's 12.
    writeFileSync(
      join(root, "sub", "tolerant.yaml"),
      sub.replace("  - id: clips\n", "  - id: clips\n    continue_on_error: true\n"),
    );
    const before = simulator.stats().videoJobs.created;
    const { runId, result } = await submit(
      "tolerant.yaml",
      parent("max_credits: 12\n", "\n    needs: [own]").replace(
        "sub/clips.yaml",
        "sub/tolerant.yaml",
      ),
      4,
    );
    expect(simulator.stats().videoJobs.created - before).toBe(3);
    expect(result.status).toBe("budget_reached");
    const runDir = String((await coordinator.store.getRun(runId))?.runDir);
    const subRuns = readdirSync(join(runDir, "subruns")).map(
      (dir) =>
        JSON.parse(readFileSync(join(runDir, "subruns", dir, "run.json"), "utf8")) as RunJson,
    );
    // What the run spent, of its maximum: the figures the database refused it with.
    expect(subRuns.map((run) => [run.status, run.error?.credits, run.error?.maxCredits])).toEqual([
      ["budget_reached", 12, 12],
    ]);
  });

  it("counts a run-time cycle's depth as a local run does: one completion per level, then the run fails", async () => {
    const before = simulator.stats().chatCompletions;
    const { result } = await submit("self.yaml", selfCaller, 1);
    expect(result.status).toBe("failed");
    const limit = Number(/the limit is (\d+)/.exec(result.error?.message ?? "")?.[1]);
    expect(limit).toBeGreaterThan(1);
    // The run's own completion, then one per level down to the limit.
    expect(simulator.stats().chatCompletions - before).toBe(limit + 1);
  });

  it("counts the depth from the run's own: a run at depth 100 has no room for a sub-pipeline", async () => {
    const before = simulator.stats().chatCompletions;
    const { result } = await submit("self.yaml", selfCaller, 1, 100);
    expect(result.status).toBe("failed");
    expect(result.error?.message).toContain("would run 101 levels deep");
    // Its own completion only: its tool's sub-pipeline is refused before it runs.
    expect(simulator.stats().chatCompletions - before).toBe(1);
  });
});
