import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJournal } from "../src/journal/journal.js";
import { runPipeline } from "../src/run-pipeline.js";
import { filesContaining, startTestService, type TestService } from "./helpers/simulator.js";

function facts(runDir: string, name: string): number {
  const file = join(runDir, "journal.jsonl");
  if (!existsSync(file)) return 0;
  return readJournal(file).filter((r) => r.type === "fact" && r.name === name).length;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("kill -9 in the middle of the fan-out, then resume", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ timeScale: 0.1 });
  });
  afterAll(() => service.close());

  it("completes the run with exactly one submission per scene", async () => {
    const pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
    const runDir = join(service.root, "runs", "killed");
    const child = spawn(
      process.execPath,
      [
        join(import.meta.dirname, "fixtures", "crash-run.mjs"),
        pipeline,
        runDir,
        join(service.root, "cache"),
      ],
      {
        env: {
          ...process.env,
          REELSMITH_BASE_URL: service.simulator.url,
          REELSMITH_API_KEY: service.simulator.apiKey,
        },
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    // Kill once a job id is durable in the journal and before every scene was submitted.
    await until(() => facts(runDir, "video.submitted") >= 1, 30_000);
    child.kill("SIGKILL");
    await exited;
    const submitted = service.simulator.stats().videoJobs.created;
    expect(submitted).toBeGreaterThanOrEqual(1);
    expect(submitted).toBeLessThan(3);
    // A job created in the instant between the service's answer and the journal write is
    // found again on resume through its deterministic Idempotency-Key.
    expect(facts(runDir, "video.submitted")).toBeGreaterThanOrEqual(1);
    expect(facts(runDir, "video.submitted")).toBeLessThanOrEqual(submitted);

    const options = service.options({ resume: runDir, cache: false });
    const result = await runPipeline(undefined, options);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(3);
    expect(service.simulator.stats().chatCompletions).toBe(1);
    const clips = result.steps.clips?.outputs as { file: string }[];
    const durations = await Promise.all(clips.map(async (c) => (await probe(c.file)).duration));
    const final = await probe(String(result.outputs.video));
    expect(final.duration).toBeCloseTo(
      durations.reduce((a, b) => a + b, 0),
      1,
    );
    expect(JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")).baseURL).toBe(
      service.simulator.url,
    );
    expect(filesContaining(runDir, service.simulator.apiKey)).toEqual([]);
  });
});
