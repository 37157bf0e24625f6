// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipeline expressions are written `${{ … }}` in plain strings
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { stepReaders } from "../../executor/step-readers.js";
import type { PipelineSpec } from "../../pipeline/pipeline-spec.js";
import { kindsByName } from "../registry.js";
import { feedsOnlyFfmpeg } from "./intermediate-output.js";

const kinds = kindsByName();
const narratedFile = new URL("../../../../../examples/narrated/pipeline.yaml", import.meta.url);

/** The steps of a pipeline whose video only other ffmpeg passes read. */
function intermediates(spec: Pick<PipelineSpec, "steps" | "outputs">): string[] {
  const readersOf = stepReaders(spec, kinds);
  return spec.steps.map((step) => step.id).filter((id) => feedsOnlyFfmpeg(id, readersOf));
}

const film = (outputs: Record<string, unknown>, extra: PipelineSpec["steps"] = []) => ({
  outputs,
  steps: [
    { id: "clips", for_each: [1, 2], video: { prompt: "p", output: "c-${{ index }}.mp4" } },
    {
      id: "fitted",
      for_each: "${{ steps.clips.outputs }}",
      ffmpeg: { fit: "${{ item.file }}", seconds: 2, output: "f-${{ index }}.mp4" },
    },
    {
      id: "joined",
      ffmpeg: { transition: "${{ steps.fitted.outputs.*.file }}", output: "joined.mp4" },
    },
    {
      id: "mixed",
      ffmpeg: {
        mix: "${{ steps.joined.outputs.file }}",
        clips: "${{ steps.fitted.outputs.*.file }}",
        narration: ["a.wav"],
        output: "mixed.mp4",
      },
    },
    {
      id: "wide",
      ffmpeg: { captions: "${{ steps.mixed.outputs.file }}", texts: ["a"], output: "wide.mp4" },
    },
    ...extra,
  ],
});

describe("feedsOnlyFfmpeg", () => {
  it("finds the narrated example's fit, join, mix and reframe outputs read only by later passes", async () => {
    const spec = parse(await readFile(narratedFile, "utf8")) as PipelineSpec;
    expect(intermediates(spec)).toEqual(["fitted", "joined", "mixed", "tall_frame"]);
  });

  it("keeps every pass that feeds a copy into a result lossy-final, and the passes before it lossless", () => {
    // The mix copies the join's picture into a pipeline output: the join is a final encode.
    expect(intermediates(film({ film: "${{ steps.mixed.outputs.file }}" }))).toEqual([]);
    // Read by the pipeline's outputs for its length only: still only fed to captions.
    expect(intermediates(film({ seconds: "${{ steps.mixed.outputs.duration }}" }))).toEqual([
      "fitted",
      "joined",
      "mixed",
    ]);
  });

  it("treats a reader of another kind, a for_each over the outputs or an unread file as a result", () => {
    const gate = { id: "look", approve: { show: ["${{ steps.joined.outputs.file }}"] } };
    // The gate shows the join: it is a result, and the fit before it (a join may copy) too.
    expect(intermediates(film({}, [gate]))).toEqual(["mixed"]);
    const each = {
      id: "frames",
      for_each: "${{ steps.fitted.outputs }}",
      ffmpeg: { frame: "${{ item.file }}", output: "frame-${{ index }}.png" },
    };
    expect(intermediates(film({}, [each]))).toEqual(["joined", "mixed"]);
    // `wide` is read by nobody: it is the film.
    expect(intermediates(film({}))).not.toContain("wide");
    // Without readers (a kind run by hand), nothing is taken for an intermediate.
    expect(feedsOnlyFfmpeg("joined", undefined)).toBe(false);
  });
});
