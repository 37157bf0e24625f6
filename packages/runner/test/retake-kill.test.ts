import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readJournal } from "../src/journal/journal.js";
import { ledgerOf } from "../src/ledger/ledger.js";
import { runPipeline } from "../src/run-pipeline.js";
import { retakeItem } from "../src/takes/retake-item.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

const takeStarts = (runDir: string) =>
  readJournal(join(runDir, "journal.jsonl")).filter((r) => r.type === "take.start").length;

/** True once a new take was started (after `starts` of them) and its job id is durable. */
function retakeSubmitted(runDir: string, starts: number): boolean {
  const journal = readJournal(join(runDir, "journal.jsonl"));
  const start = journal.findLastIndex((record) => record.type === "take.start");
  return (
    journal.filter((record) => record.type === "take.start").length > starts &&
    journal
      .slice(start)
      .some((r) => r.type === "fact" && r.name === "video.submitted" && r.index === 1)
  );
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("kill -9 in the middle of a retake", () => {
  let service: TestService;
  let runDir: string;
  beforeAll(async () => {
    // Slow jobs: a retake is caught between its submission and its clip.
    service = await startTestService({ timeScale: 0.1 });
    const pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
    const result = await runPipeline(pipeline, service.options());
    expect(result.status).toBe("succeeded");
    runDir = result.runDir;
  });
  afterAll(() => service.close());

  /** Starts a retake of item 1 in a child process and kills it once its job is journaled. */
  async function killedRetake(prompt: string): Promise<void> {
    const starts = takeStarts(runDir);
    const child = spawn(
      process.execPath,
      [
        join(import.meta.dirname, "fixtures", "crash-retake.mjs"),
        runDir,
        join(service.root, "cache"),
        prompt,
      ],
      {
        env: { ...process.env, REELSMITH_API_KEY: service.simulator.apiKey },
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    await until(() => retakeSubmitted(runDir, starts), 30_000);
    child.kill("SIGKILL");
    await exited;
    // Killed in the middle: the new take's job is journaled, its clip is not.
    const journal = readJournal(join(runDir, "journal.jsonl"));
    const start = journal.findLastIndex((record) => record.type === "take.start");
    expect(journal.slice(start).some((r) => r.type === "item.end" && r.index === 1)).toBe(false);
  }

  it("resume re-attaches to the retake's journaled job: one job for the retake", async () => {
    const before = service.simulator.stats().videoJobs.created;
    await killedRetake("Scene 1: the lantern flickers out");
    await vi.waitFor(() => expect(service.simulator.stats().videoJobs.created).toBe(before + 1));
    const resumed = await runPipeline(undefined, service.options({ resume: runDir }));
    expect(resumed.error).toBeUndefined();
    expect(resumed.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(before + 1);
    const clips = join(runDir, "clips");
    expect(sha(join(clips, "scene-1.mp4"))).toBe(sha(join(clips, "scene-1.take-2.mp4")));
    const takes = readJournal(join(runDir, "journal.jsonl")).filter((r) => r.type === "take");
    expect(takes.map((take) => take.take)).toEqual([1, 2]);
    expect(takes[1]?.prompt).toBe("Scene 1: the lantern flickers out");
    const ledger = ledgerOf(readJournal(join(runDir, "journal.jsonl")));
    expect(ledger.total.credits).toBe(service.simulator.stats().creditsCharged);
  });

  it("the same retake again re-attaches too, and never pays twice", async () => {
    const before = service.simulator.stats().videoJobs.created;
    await killedRetake("Scene 1: snow falls on the lantern");
    await vi.waitFor(() => expect(service.simulator.stats().videoJobs.created).toBe(before + 1));
    const again = await retakeItem(
      runDir,
      { step: "clips", index: 1, prompt: "Scene 1: snow falls on the lantern" },
      service.options(),
    );
    expect(again.error).toBeUndefined();
    expect(again.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(before + 1);
    const journal = readJournal(join(runDir, "journal.jsonl"));
    expect(journal.filter((r) => r.type === "take.start").map((r) => r.take)).toEqual([2, 3]);
    expect(journal.filter((r) => r.type === "take").map((r) => r.take)).toEqual([1, 2, 3]);
    const ledger = ledgerOf(journal);
    expect(ledger.total.credits).toBe(service.simulator.stats().creditsCharged);
  });
});
