// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { videoModels } from "@reelsmith/simulator/catalog";
import { describe, expect, it } from "vitest";
import { validatePipeline } from "./validate-pipeline.js";

async function problems(source: string) {
  return (
    await validatePipeline({ path: "p.yaml", source }, { catalogs: { video_models: videoModels } })
  ).diagnostics;
}

describe("where a problem points", () => {
  it("an unknown video model gets a did-you-mean from the catalog in force", async () => {
    const found = await problems(
      "name: t\nsteps:\n  - id: clip\n    video: { model: reel-video-2-lit, prompt: a boat }\n",
    );
    expect(found).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "unknown_model",
        message: "unknown video model `reel-video-2-lit`; did you mean `reel-video-2-lite`?",
        line: 4,
        column: 21,
        hint: expect.stringMatching(/^did you mean `reel-video-2-lite`\? known models: /),
      }),
    ]);
  });

  it("an unknown step or input is pointed at by its name, not by the `${{` before it", async () => {
    const found = await problems(
      [
        "name: t",
        "inputs: { story: { type: string } }",
        "steps:",
        "  - id: clip",
        "    video: { model: reel-video-1, prompt: 'a ${{ inputs.story }} ${{ inputs.stroy }}' }",
        "  - id: joined",
        "    ffmpeg:",
        "      concat: ${{ steps . clipz.outputs.*.file }}",
        "      output: joined.mp4",
        "",
      ].join("\n"),
    );
    const line = (n: number) =>
      [
        "",
        "",
        "",
        "",
        "    video: { model: reel-video-1, prompt: 'a ${{ inputs.story }} ${{ inputs.stroy }}' }",
        "",
        "",
        "      concat: ${{ steps . clipz.outputs.*.file }}",
      ][n - 1] ?? "";
    expect(found).toEqual([
      expect.objectContaining({
        code: "unknown_input",
        line: 5,
        column: line(5).indexOf("stroy") + 1,
      }),
      expect.objectContaining({
        code: "unknown_step",
        line: 8,
        column: line(8).indexOf("clipz") + 1,
      }),
    ]);
  });
});
