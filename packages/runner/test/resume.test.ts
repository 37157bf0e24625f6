import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PipelineChangedError } from "../src/errors/pipeline-changed-error.js";
import { readJournal } from "../src/journal/journal.js";
import { runPipeline } from "../src/run-pipeline.js";
import { filesContaining, startTestService, type TestService } from "./helpers/simulator.js";

describe("resume after an interruption", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("re-attaches submitted jobs, downloads completed ones and pays once per scene", async () => {
    const pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
    const controller = new AbortController();
    const first = service.options({
      slots: { video: 2 },
      cache: false,
      signal: controller.signal,
      // Abort the moment the first clip completes: it is completed but not downloaded,
      // another job is in flight, and the third scene is not submitted yet.
      onEvent: (event) => {
        if (
          event.type === "unit.progress" &&
          event.stage === "status" &&
          event.status === "completed"
        )
          controller.abort();
      },
    });
    const interrupted = await runPipeline(pipeline, first);
    expect(interrupted.status).toBe("cancelled");
    expect(first.events.at(-1)).toMatchObject({ type: "run.end", status: "cancelled" });
    const submittedBefore = service.simulator.stats().videoJobs.created;
    expect(submittedBefore).toBeGreaterThanOrEqual(1);
    expect(submittedBefore).toBeLessThan(3);
    const facts = readJournal(join(interrupted.runDir, "journal.jsonl")).filter(
      (r) => r.type === "fact",
    );
    expect(facts.filter((f) => f.name === "video.submitted")).toHaveLength(submittedBefore);

    // A changed pipeline is refused, not silently mixed.
    const original = readFileSync(pipeline, "utf8");
    writeFileSync(pipeline, original.replace("seconds: 1", "seconds: 2"));
    await expect(
      runPipeline(pipeline, service.options({ resume: interrupted.runDir })),
    ).rejects.toThrow(PipelineChangedError);
    writeFileSync(pipeline, original);

    const second = service.options({
      resume: interrupted.runDir,
      cache: false,
      slots: { video: 2 },
    });
    const resumed = await runPipeline(undefined, second);
    expect(resumed.error).toBeUndefined();
    expect(resumed.status).toBe("succeeded");
    expect(resumed.runDir).toBe(interrupted.runDir);
    expect(second.events.find((event) => event.type === "run.start")).toMatchObject({
      resumedAfter: "interruption",
    });
    const stats = service.simulator.stats();
    expect(stats.videoJobs.created).toBe(3);
    expect(stats.chatCompletions).toBe(1);
    expect(
      second.events.some((e) => e.type === "unit.progress" && e.stage === "submitted" && e.resumed),
    ).toBe(true);
    const final = await probe(String(resumed.outputs.video));
    const clips = resumed.steps.clips?.outputs as { file: string }[];
    const durations = await Promise.all(clips.map(async (c) => (await probe(c.file)).duration));
    expect(final.duration).toBeCloseTo(
      durations.reduce((a, b) => a + b, 0),
      1,
    );
    const runJson = JSON.parse(readFileSync(join(resumed.runDir, "run.json"), "utf8"));
    expect(runJson).toMatchObject({ status: "succeeded", baseURL: service.simulator.url });
    expect(filesContaining(resumed.runDir, service.simulator.apiKey)).toEqual([]);
  });
});
