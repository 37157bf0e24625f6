import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readJournal } from "../src/journal/journal.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

describe("resume when the service no longer knows a journaled job", () => {
  const services: TestService[] = [];
  afterAll(() => Promise.all(services.map((service) => service.close())));

  it("fails with a clear message instead of paying again, and resubmits only when asked", async () => {
    const first = await startTestService();
    services.push(first);
    const pipeline = join(first.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
    const controller = new AbortController();
    const interrupted = await runPipeline(
      pipeline,
      first.options({
        slots: { video: 1 },
        cache: false,
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === "unit.progress" && event.stage === "submitted") controller.abort();
        },
      }),
    );
    expect(interrupted.status).toBe("cancelled");
    const journaled = readJournal(join(interrupted.runDir, "journal.jsonl")).filter(
      (record) => record.type === "fact" && record.name === "video.submitted",
    );
    expect(journaled).toHaveLength(1);
    // The service that knew the job is gone (as the built-in simulator is after a crash).
    await first.close();

    const second = await startTestService();
    services.push(second);
    const refused = await runPipeline(
      undefined,
      second.options({ resume: interrupted.runDir, cache: false, slots: { video: 1 } }),
    );
    expect(refused.status).toBe("failed");
    expect(JSON.stringify(refused.steps.clips)).toContain("is not known to the service");
    expect(JSON.stringify(refused.steps.clips)).toContain("--resubmit-lost");
    // The other scenes were submitted, the lost one was not.
    expect(second.simulator.stats().videoJobs.created).toBe(2);

    const warnings: string[] = [];
    const resumed = await runPipeline(
      undefined,
      second.options({
        resume: interrupted.runDir,
        cache: false,
        slots: { video: 1 },
        resubmitLostJobs: true,
        onEvent: (event) => {
          if (event.type === "log" && event.level === "warn") warnings.push(event.message);
        },
      }),
    );
    expect(resumed.error).toBeUndefined();
    expect(resumed.status).toBe("succeeded");
    expect(second.simulator.stats().videoJobs.created).toBe(3);
    // "re-attached" then "submitted" under a new id is said, once, for the lost job.
    expect(warnings.filter((message) => message.includes("submitted anew"))).toHaveLength(1);
    expect(warnings.find((message) => message.includes("submitted anew"))).toMatch(
      /^video job \S+ \(item \d\) is not known to the service \(404\): submitted anew/,
    );
  });

  it("treats a completed job whose clip the service no longer serves as lost, not as a retry", async () => {
    const first = await startTestService();
    services.push(first);
    const pipeline = join(first.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
    const done = await runPipeline(pipeline, first.options({ cache: false }));
    expect(done.status).toBe("succeeded");
    // The clip is gone from the run, and the service that made it is gone too: its journaled,
    // completed job can only be answered with 404 by the next service.
    rmSync(join(done.runDir, "clips", "scene-1.mp4"));
    await first.close();

    const second = await startTestService();
    services.push(second);
    const refused = await runPipeline(
      undefined,
      second.options({ resume: done.runDir, cache: false }),
    );
    expect(refused.status).toBe("failed");
    expect(JSON.stringify(refused.steps.clips)).toContain("is not known to the service");
    expect(second.simulator.stats().videoJobs.created).toBe(0);

    const resumed = await runPipeline(
      undefined,
      second.options({ resume: done.runDir, cache: false, resubmitLostJobs: true }),
    );
    expect(resumed.error).toBeUndefined();
    expect(resumed.status).toBe("succeeded");
    expect(second.simulator.stats().videoJobs.created).toBe(1);
    expect(existsSync(join(done.runDir, "clips", "scene-1.mp4"))).toBe(true);
  });
});
