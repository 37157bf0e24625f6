import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { MAX_VIDEO_PROMPT_CHARS } from "../src/steps/video/video-check.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

describe("video limits known only after evaluation are checked before submission", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("refuses a prompt from an input that is longer than the service takes, paying nothing", async () => {
    const file = join(service.root, "long.yaml");
    writeFileSync(
      file,
      `name: long
inputs:
  text: { type: string }
  seconds: { type: integer, default: 4 }
steps:
  - id: clip
    video: { model: reel-video-1, prompt: "\${{ inputs.text }}", seconds: "\${{ inputs.seconds }}" }
`,
    );
    const long = await runPipeline(
      file,
      service.options({ cache: false, inputs: { text: "x".repeat(MAX_VIDEO_PROMPT_CHARS + 1) } }),
    );
    expect(long.status).toBe("failed");
    expect(long.error?.message).toContain(
      `The video prompt is ${MAX_VIDEO_PROMPT_CHARS + 1} characters; the service takes at most ${MAX_VIDEO_PROMPT_CHARS}.`,
    );
    // A length from an input is known before the run: refused at the field that uses it.
    await expect(
      runPipeline(file, service.options({ cache: false, inputs: { text: "a fox", seconds: 30 } })),
    ).rejects.toMatchObject({
      code: "pipeline_invalid",
      message: expect.stringContaining(
        "long.yaml:7:74: `seconds: 30` is over reel-video-1's 10 (with the run's inputs)",
      ),
    });
    expect(service.simulator.stats().requests["POST /v1/videos"]).toBeUndefined();
  });
});
