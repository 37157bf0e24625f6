// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { join } from "node:path";
import { bundledBinaries, locateFfmpeg, probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

// Everything in this file (the simulator's clips, the ffmpeg steps) runs on the ffmpeg npm
// ships, a 4.1 build without xfade: what a fresh install has.
const bundled = bundledBinaries();
process.env.FFMPEG_PATH = bundled.ffmpeg ?? "";
process.env.FFPROBE_PATH = bundled.ffprobe ?? "";

function pipeline(effect: "crossfade" | "fade") {
  return {
    name: `transition-${effect}`,
    defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "854x480" } },
    steps: [
      {
        id: "clips",
        for_each: ["a fox", "a lantern", "the dawn"],
        video: { prompt: "${{ item }}", output: "clips/scene-${{ index }}.mp4" },
      },
      {
        id: "final",
        ffmpeg: {
          transition: "${{ steps.clips.outputs.*.file }}",
          effect,
          duration: 0.25,
          output: "final.mp4",
        },
      },
    ],
    outputs: { video: "${{ steps.final.outputs.file }}" },
  };
}

describe("a pipeline with a transition on the bundled ffmpeg", () => {
  let service: TestService;
  beforeAll(async () => {
    const tools = await locateFfmpeg({ refresh: true });
    expect(tools.ffmpeg.source).toBe("env");
    expect(tools.ffmpeg.path).toBe(bundled.ffmpeg);
    service = await startTestService();
  });
  afterAll(() => service?.close());

  it.each(["crossfade", "fade"] as const)("joins three clips with a %s", async (effect) => {
    const result = await runPipeline(pipeline(effect), service.options());
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const clips = result.steps.clips?.outputs as { file: string }[];
    const lengths = await Promise.all(clips.map(async (clip) => (await probe(clip.file)).duration));
    const expected = lengths.reduce((sum, seconds) => sum + seconds, 0) - 2 * 0.25;
    const final = await probe(String(result.outputs.video));
    expect(Math.abs(final.duration - expected)).toBeLessThanOrEqual(0.05);
    expect(final.hasAudio).toBe(true);
    expect(`${final.width}x${final.height}`).toBe("854x480");
    expect(join(result.runDir, "final.mp4")).toBe(result.outputs.video);
  });
});
