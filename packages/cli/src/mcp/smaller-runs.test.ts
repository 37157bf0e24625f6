// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { VideoModelCatalog } from "@reelsmith/core/catalog";
import { resolveInputs, validatePipeline } from "@reelsmith/runner/validate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smallerRuns } from "./smaller-runs.js";

const catalog: VideoModelCatalog = [
  { id: "dear-video", seconds: { min: 1, max: 10 }, sizes: ["854x480"], price: { perClip: 10 } },
  { id: "cheap-video", seconds: { min: 1, max: 10 }, sizes: ["854x480"], price: { perClip: 4 } },
  { id: "short-video", seconds: { min: 1, max: 1 }, sizes: ["854x480"], price: { perClip: 1 } },
];

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "reelsmith-smaller-"));
  file = path.join(dir, "pipeline.yaml");
  await writeFile(
    file,
    [
      "name: lake",
      "inputs:",
      "  scenes: { type: array, default: [dawn, noon, dusk, night, midnight] }",
      "  video_model: { type: string, default: dear-video }",
      "steps:",
      "  - id: clips",
      "    for_each: ${{ inputs.scenes }}",
      '    video: { model: "${{ inputs.video_model }}", seconds: 2, size: 854x480, prompt: "A lake at ${{ item }}" }',
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("smallerRuns", () => {
  it("finds the longest list that fits and the other priced models that fit, never one the model refuses", async () => {
    const { pipeline } = await validatePipeline(file, { catalogs: { video_models: catalog } });
    if (!pipeline) throw new Error("the pipeline did not load");
    const given = {};
    const alternatives = await smallerRuns({
      file: "pipeline.yaml",
      pipeline,
      given,
      inputs: resolveInputs(pipeline, given),
      catalogs: { video_models: catalog },
      limit: 25,
      call: { maxCredits: 25 },
    });
    expect(alternatives).toEqual([
      expect.objectContaining({
        tool: "run",
        arguments: {
          maxCredits: 25,
          pipeline: "pipeline.yaml",
          inputs: { scenes: ["dawn", "noon"] },
        },
        estimate: 20,
      }),
      expect.objectContaining({
        arguments: {
          maxCredits: 25,
          pipeline: "pipeline.yaml",
          inputs: { video_model: "cheap-video" },
        },
        estimate: 20,
      }),
    ]);
  });
});
