import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { defineStepKind } from "../../steps/define-step-kind.js";
import { builtInStepKinds } from "../../steps/registry.js";
import { type ValidateOptions, validatePipeline } from "../validate-pipeline.js";

/** A folder with a pipeline's neighbours: an MP4's first bytes as `intro.mp4`. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "reelsmith-files-pass-"));
  writeFileSync(
    join(dir, "intro.mp4"),
    Buffer.from("\0\0\0\x18ftypisom\0\0\0\0isomavc1", "latin1"),
  );
  return dir;
}

async function problems(dir: string, lines: string[], stepKinds?: ValidateOptions["stepKinds"]) {
  const { diagnostics } = await validatePipeline(
    { source: lines.join("\n"), path: join(dir, "pipeline.yaml") },
    stepKinds ? { stepKinds } : {},
  );
  return diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => ({ at: `${d.line}:${d.column}`, code: d.code, message: d.message, hint: d.hint }));
}

const clipStep = [
  "  - id: clip",
  "    video: { model: reel-video-1, prompt: a fox, seconds: 2, size: 854x480 }",
];

describe("files pass: an ffmpeg step's literal videos", () => {
  it("refuses a video that is neither beside the pipeline nor written by a step, where it is named", async () => {
    const found = await problems(project(), [
      "name: join",
      "steps:",
      ...clipStep,
      "  - id: joined",
      '    ffmpeg: { concat: [intro.mp4, "${{ steps.clip.outputs.file }}", outro.mp4], output: joined.mp4 }',
      "",
    ]);
    expect(found).toEqual([
      {
        at: "6:69",
        code: "file_not_found",
        message: "video not found: outro.mp4",
        hint: "relative paths are looked for in the run directory (no step of this pipeline writes this one), then in the pipeline file's folder",
      },
    ]);
  });

  it("takes a path an earlier step writes: a clip's default path, an ffmpeg output, a captions SRT", async () => {
    const found = await problems(project(), [
      "name: made",
      "steps:",
      ...clipStep,
      "  - id: fitted",
      "    ffmpeg: { fit: clip/0.mp4, size: 480x854, output: ./tall/fitted.mp4 }",
      "  - id: joined",
      "    ffmpeg: { concat: [intro.mp4, tall/fitted.mp4], output: joined.mp4 }",
      "  - id: captioned",
      '    ffmpeg: { captions: joined.mp4, texts: ["a fox"], clips: [clip/0.mp4], output: captioned.mp4 }',
      "  - id: burnt",
      "    ffmpeg: { subtitles: joined.mp4, file: captioned.srt, output: burnt.mp4 }",
      "",
    ]);
    expect(found).toEqual([]);
  });

  it("still refuses a misspelt path that a step's pattern does not cover", async () => {
    const found = await problems(project(), [
      "name: typo",
      "steps:",
      ...clipStep,
      "  - id: fitted",
      "    ffmpeg: { fit: clips/0.mp4, size: 480x854, output: fitted.mp4 }",
      "",
    ]);
    expect(found.map((problem) => [problem.at, problem.message])).toEqual([
      ["6:20", "video not found: clips/0.mp4"],
    ]);
  });

  it("does not guess when a step's kind does not say what it writes", async () => {
    const renderKind = defineStepKind({
      kind: "render",
      schema: Type.Object({}),
      run: async () => ({}),
    });
    const found = await problems(
      project(),
      [
        "name: custom",
        "steps:",
        "  - id: art",
        "    render: {}",
        "  - id: fitted",
        "    ffmpeg: { fit: art/out.mp4, size: 480x854, output: fitted.mp4 }",
        "",
      ],
      [...builtInStepKinds, renderKind],
    );
    expect(found).toEqual([]);
  });
});
