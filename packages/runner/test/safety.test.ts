// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

describe("safety of inputs", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("refuses an invalid pipeline before sending anything or creating a run directory", async () => {
    const options = service.options();
    await expect(
      runPipeline(
        {
          name: "bad",
          steps: [{ id: "a", video: { model: "reel-video-1", prompt: "x", seconds: 99 } }],
        },
        options,
      ),
    ).rejects.toThrow(/seconds/);
    expect(existsSync(join(service.root, "runs"))).toBe(false);
    expect(service.simulator.stats().requests).toEqual({});
  });

  it("refuses output paths that leave the run directory when they come from expressions", async () => {
    for (const out of ["../escape.mp4", "/tmp/escape.mp4", "clips/../../escape.mp4"]) {
      const result = await runPipeline(
        {
          name: "traversal",
          inputs: { out: { type: "string" } },
          steps: [
            {
              id: "clip",
              video: {
                model: "reel-video-2-lite",
                seconds: 1,
                size: "720x480",
                prompt: "x",
                output: "${{ inputs.out }}",
              },
            },
          ],
        },
        service.options({ inputs: { out }, cache: false }),
      );
      expect(result.status).toBe("failed");
      expect(result.error?.message).toContain(`Output path "${out}" is refused`);
    }
    expect(service.simulator.stats().videoJobs.created).toBe(0);
    expect(readdirSync(service.root).sort()).toEqual(["runs"]);
  });
});
