import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const clip = (output: string) => ({
  name: "placement",
  steps: [
    {
      id: "clip",
      video: {
        model: "reel-video-2-lite",
        seconds: 1,
        size: "720x480",
        prompt: "a lighthouse at dusk",
        output,
      },
    },
  ],
});

describe("the cache and output paths", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("reuses a clip asked for again under another output path, written where the new run wants it", async () => {
    const first = await runPipeline(clip("clips/first.mp4"), service.options());
    expect(first.status).toBe("succeeded");
    const second = await runPipeline(clip("elsewhere/second.mp4"), service.options());
    expect(second.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(1);
    const file = String(
      second.steps.clip?.outputs && (second.steps.clip.outputs as { file: string }).file,
    );
    expect(file).toBe(join(second.runDir, "elsewhere", "second.mp4"));
    expect(existsSync(file)).toBe(true);
    expect(second.totals.cachedSteps).toBe(1);
  });
});
