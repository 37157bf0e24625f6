import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJournal } from "../src/journal/journal.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const FIXTURES = join(import.meta.dirname, "fixtures");

function submittedJobs(runDir: string): string[] {
  return readJournal(join(runDir, "journal.jsonl"))
    .filter((r) => r.type === "fact" && r.name === "video.submitted")
    .map((r) => String((r.data as { jobId: string }).jobId));
}

describe("run directories", () => {
  let service: TestService;
  let pipeline: string;
  beforeAll(async () => {
    service = await startTestService();
    pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(FIXTURES, "storyboard.yaml"), pipeline);
  });
  afterAll(() => service.close());

  it("gives two runs into a/out and b/out their own idempotency keys (no 409, no shared jobs)", async () => {
    const before = service.simulator.stats().videoJobs.created;
    const runs = [];
    for (const [dir, story] of [
      ["a", "A cat naps. It wakes. It eats."],
      ["b", "A dog runs. It jumps. It sleeps."],
    ]) {
      const runDir = join(service.root, String(dir), "out");
      runs.push(
        await runPipeline(pipeline, service.options({ runDir, cache: false, inputs: { story } })),
      );
    }
    for (const run of runs) expect(run.error).toBeUndefined();
    expect(runs.map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
    expect(service.simulator.stats().videoJobs.created - before).toBe(6);
    const [a, b] = runs.map((r) => JSON.parse(readFileSync(join(r.runDir, "run.json"), "utf8")));
    expect(a.runId).not.toBe(b.runId);
    const start = readJournal(join(runs[0]!.runDir, "journal.jsonl"))[0];
    expect(start).toMatchObject({ type: "run.start", runId: a.runId });
    const keys = readJournal(join(runs[0]!.runDir, "journal.jsonl"))
      .filter((r) => r.type === "fact" && r.name === "video.submitted")
      .map((r) => (r.data as { idempotencyKey: string }).idempotencyKey);
    expect(keys.sort()).toEqual([0, 1, 2].map((i) => `reelsmith-${a.runId}-clips-${i}-1`));
  });

  it("refuses a new run in a directory that already holds one, leaving it untouched", async () => {
    const runDir = join(service.root, "taken");
    const first = await runPipeline(pipeline, service.options({ runDir, cache: false }));
    expect(first.status).toBe("succeeded");
    const journal = readFileSync(join(runDir, "journal.jsonl"), "utf8");
    const created = service.simulator.stats().videoJobs.created;
    await expect(runPipeline(pipeline, service.options({ runDir }))).rejects.toMatchObject({
      name: "RunDirectoryInUseError",
      code: "run_dir_in_use",
      hint: expect.stringContaining(`reelsmith resume ${runDir}`),
    });
    expect(readFileSync(join(runDir, "journal.jsonl"), "utf8")).toBe(journal);
    expect(service.simulator.stats().videoJobs.created).toBe(created);
  });

  // Kill points: the staged directory before and after its rename, then the first events.
  const points = ["before-rename", "after-rename", "event:run.start", "event:step.start"];
  it.each(points)(
    "resumes a run killed at %s with one submission per scene, or says nothing was started",
    async (point) => {
      const runDir = join(service.root, "killed", point.replace(":", "-"));
      const before = service.simulator.stats().videoJobs.created;
      const child = spawn(
        process.execPath,
        [join(FIXTURES, "crash-at.mjs"), pipeline, runDir, join(service.root, "cache"), point],
        {
          env: {
            ...process.env,
            REELSMITH_BASE_URL: service.simulator.url,
            REELSMITH_API_KEY: service.simulator.apiKey,
          },
          stdio: "ignore",
        },
      );
      const signal = await new Promise((resolve) => child.on("exit", (_code, sig) => resolve(sig)));
      expect(signal).toBe("SIGKILL");
      const resumed = runPipeline(undefined, service.options({ resume: runDir, cache: false }));
      if (point === "before-rename") {
        await expect(resumed).rejects.toMatchObject({
          name: "ResumeError",
          code: "nothing_started",
        });
        expect(existsSync(runDir)).toBe(false);
        // The staging leftovers are cleared once reported.
        expect(readdirSync(join(runDir, "..")).filter((n) => n.includes("starting"))).toEqual([]);
        expect(service.simulator.stats().videoJobs.created).toBe(before);
        return;
      }
      const result = await resumed;
      expect(result.error).toBeUndefined();
      expect(result.status).toBe("succeeded");
      expect(new Set(submittedJobs(runDir)).size).toBe(3);
      expect(service.simulator.stats().videoJobs.created - before).toBe(3);
      expect(existsSync(join(runDir, "final.mp4"))).toBe(true);
    },
  );
});
