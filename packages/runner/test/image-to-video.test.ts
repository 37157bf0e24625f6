import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { solidPng } from "./helpers/png.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const pipelineText = `name: still
steps:
  - id: look
    chat: { model: reel-chat-1, prompt: "Describe this picture", images: [frames/first.png] }
  - id: clip
    video: { model: reel-video-2-lite, seconds: 1, size: 720x480, image: frames/first.png, prompt: "The picture comes alive" }
outputs:
  file: \${{ steps.clip.outputs.file }}
`;

describe("images from local files", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("sends a local PNG (relative to the pipeline) to chat and video, and keys the cache on its bytes", async () => {
    const dir = join(service.root, "project");
    mkdirSync(join(dir, "frames"), { recursive: true });
    writeFileSync(join(dir, "pipeline.yaml"), pipelineText);
    writeFileSync(join(dir, "frames", "first.png"), solidPng(64, 48, [200, 40, 40]));
    const first = await runPipeline(join(dir, "pipeline.yaml"), service.options());
    expect(first.error).toBeUndefined();
    expect(first.status).toBe("succeeded");
    expect(String((first.steps.look?.outputs as { text?: string } | undefined)?.text)).toContain(
      "64×48",
    );
    const info = await probe(String(first.outputs.file));
    expect(info.width).toBe(720);
    expect(service.simulator.stats().videoJobs.created).toBe(1);

    // Same bytes: served from the cache. Other bytes under the same name: a new request.
    await runPipeline(join(dir, "pipeline.yaml"), service.options());
    expect(service.simulator.stats().videoJobs.created).toBe(1);
    writeFileSync(join(dir, "frames", "first.png"), solidPng(64, 48, [40, 200, 40]));
    const third = await runPipeline(join(dir, "pipeline.yaml"), service.options());
    expect(third.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(2);
  });

  it("a keyframe made in the run and given to a clip: a rerun is served both, known free before anything is sent", async () => {
    const dir = join(service.root, "keyframed");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "pipeline.yaml"),
      `name: keyframed
steps:
  - id: keyframe
    image: { model: reel-image-1, prompt: "a lighthouse at dusk", size: 1536x1024, output: keyframe.png }
  - id: clip
    video: { model: reel-video-2-lite, seconds: 1, size: 854x480, image: "\${{ steps.keyframe.outputs.file }}", prompt: "The light turns" }
`,
    );
    const before = service.simulator.stats();
    const first = await runPipeline(join(dir, "pipeline.yaml"), service.options());
    expect(first.error).toBeUndefined();
    const made = service.simulator.stats();
    expect(made.videoJobs.created).toBe(before.videoJobs.created + 1);

    // The keyframe is a file of the first run's directory; the rerun's is another path with
    // the same bytes, so the clip's key (by the bytes) is the same: nothing is paid again, and
    // the estimate says so before the run, under a budget below one clip.
    const options = service.options({ maxCredits: 1 });
    const second = await runPipeline(join(dir, "pipeline.yaml"), options);
    expect(second.error).toBeUndefined();
    expect(second.status).toBe("succeeded");
    expect(second.steps.clip?.cached).toBe(true);
    const after = service.simulator.stats();
    expect(after.videoJobs.created).toBe(made.videoJobs.created);
    expect(after.images).toEqual(made.images);
    const estimate = options.events.find((e) => e.type === "run.estimate");
    expect(estimate?.type === "run.estimate" && estimate.estimate).toMatchObject({
      credits: 0,
      steps: { keyframe: { units: 0, cached: 1 }, clip: { units: 0, cached: 1, credits: 0 } },
    });
  });
});
