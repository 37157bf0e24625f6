import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES } from "../src/files/image-file.js";
import { validatePipeline } from "../src/pipeline/validate-pipeline.js";
import { runPipeline } from "../src/run-pipeline.js";
import { solidPng } from "./helpers/png.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

/** The image path comes from an input, so only the run can check it. */
const pipelineText = `name: frames
inputs:
  frame: { type: string }
steps:
  - id: first
    video: { model: reel-video-2-lite, seconds: 1, size: 720x480, prompt: a still sea }
  - id: look
    needs: [first]
    chat: { model: reel-chat-1, prompt: "Describe it", images: ["\${{ inputs.frame }}"] }
  - id: animate
    needs: [first]
    video: { model: reel-video-2-lite, seconds: 1, size: 720x480, image: "\${{ inputs.frame }}", prompt: "It moves" }
`;

describe("images are checked by their bytes before upload", () => {
  let service: TestService;
  let dir: string;
  beforeAll(async () => {
    service = await startTestService();
    dir = join(service.root, "project");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "pipeline.yaml"), pipelineText);
    writeFileSync(join(dir, "notes.png"), "not a picture at all\n");
    writeFileSync(join(dir, "good.png"), solidPng(8, 8, [1, 2, 3]));
    writeFileSync(join(dir, "huge.png"), solidPng(8, 8, [1, 2, 3]));
    truncateSync(join(dir, "huge.png"), MAX_IMAGE_BYTES + 1);
  });
  afterAll(() => service.close());

  it("refuses a non-image named by an expression before sending it, with a clear error", async () => {
    const result = await runPipeline(
      join(dir, "pipeline.yaml"),
      service.options({ cache: false, inputs: { frame: "notes.png" } }),
    );
    expect(result.status).toBe("failed");
    expect(result.steps.look?.error?.message).toContain(
      "image notes.png cannot be sent: its bytes are not a PNG, JPEG, GIF or WebP image",
    );
    expect(result.steps.animate?.error?.message).toContain("image notes.png cannot be sent");
    const stats = service.simulator.stats();
    // Only the first, independent clip was paid; neither image request left the machine.
    expect(stats.videoJobs.created).toBe(1);
    expect(stats.chatCompletions).toBe(0);
  });

  it("refuses an image larger than the service takes, at validate for a literal path", async () => {
    const literal = join(dir, "literal.yaml");
    writeFileSync(literal, pipelineText.replaceAll(`\${{ inputs.frame }}`, "huge.png"));
    const { diagnostics } = await validatePipeline(literal);
    const messages = diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
    expect(messages).toContain(
      `9:65 image huge.png cannot be sent: it is ${MAX_IMAGE_BYTES + 1} bytes; the limit is ${MAX_IMAGE_BYTES} bytes (10 MiB)`,
    );
    expect(messages.filter((m) => m.includes("huge.png"))).toHaveLength(2);
  });

  it("sends a real image named by an expression", async () => {
    const result = await runPipeline(
      join(dir, "pipeline.yaml"),
      service.options({ cache: false, inputs: { frame: "good.png" } }),
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
  });
});
