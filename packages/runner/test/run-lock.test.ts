import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResumeError } from "../src/errors/resume-error.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

describe("one process drives a run at a time", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("refuses to resume a run that is still running, and frees the lock when it ends", async () => {
    const pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
    let started: (runDir: string) => void = () => {};
    const runDir = new Promise<string>((resolve) => {
      started = resolve;
    });
    const running = runPipeline(
      pipeline,
      service.options({
        cache: false,
        onEvent: (event) => {
          if (event.type === "run.start") started(event.runDir);
        },
      }),
    );
    const dir = await runDir;
    const second = runPipeline(undefined, service.options({ resume: dir, cache: false }));
    await expect(second).rejects.toThrow(ResumeError);
    await expect(second).rejects.toThrow(/in use by process/);
    const result = await running;
    expect(result.status).toBe("succeeded");
    expect(existsSync(join(dir, "run.lock"))).toBe(false);
    expect(service.simulator.stats().videoJobs.created).toBe(3);
  });
});
