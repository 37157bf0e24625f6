import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { locateFfmpeg, probe, readSrtFile } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const run = promisify(execFile);

/** Raw RGB of a horizontal band of the frame on screen at `at` seconds, decoded by ffmpeg. */
async function band(video: string, at: number, y: number, height: number): Promise<Buffer> {
  const tools = await locateFfmpeg();
  const info = await probe(video);
  const { stdout } = await run(
    tools.ffmpeg.path,
    [
      ...["-v", "error", "-ss", at.toFixed(3), "-i", video, "-frames:v", "1"],
      ...["-vf", `crop=${info.width}:${height}:0:${y}`, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
    ],
    { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
  );
  expect(stdout.length).toBe(info.width * height * 3);
  return stdout;
}

/** Mean absolute difference per byte of two pictures of the same size. */
function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

/** Where each clip starts on the joined timeline (each join overlaps by `overlap`). */
function clipStarts(durations: number[], overlap: number): number[] {
  const starts = [0];
  for (const duration of durations.slice(0, -1))
    starts.push((starts.at(-1) ?? 0) + duration - overlap);
  return starts;
}

const TEXTS = ["Dawn on the lake: é, ñ, ø", "日本語の字幕", "The end 🎬"];

const pipelineText = `name: captions
defaults:
  video: { model: reel-video-2-lite, size: 720x480 }
  ffmpeg:
    style: { font_size: 36, color: "#ffd500", outline: 2, outline_color: black, position: bottom, margin: 20 }
steps:
  - id: clips
    for_each: [1, 2, 1]
    video: { prompt: "scene \${{ index }}", seconds: "\${{ item }}", output: "clips/\${{ index }}.mp4" }
  - id: joined
    ffmpeg: { concat: "\${{ steps.clips.outputs.*.file }}", output: joined.mp4 }
  - id: faded
    ffmpeg: { transition: "\${{ steps.clips.outputs.*.file }}", duration: 0.5, output: faded.mp4 }
  - id: plain_captions
    ffmpeg:
      captions: \${{ steps.joined.outputs.file }}
      texts: ${JSON.stringify(TEXTS)}
      clips: \${{ steps.clips.outputs.*.file }}
      output: joined-captioned.mp4
  - id: faded_captions
    ffmpeg:
      captions: \${{ steps.faded.outputs.file }}
      texts: ${JSON.stringify(TEXTS)}
      clips: \${{ steps.clips.outputs.*.file }}
      transition_duration: 0.5
      output: faded-captioned.mp4
  - id: hangul
    ffmpeg:
      captions: \${{ steps.joined.outputs.file }}
      texts: ["안녕 hello", "", "bye"]
      clips: \${{ steps.clips.outputs.*.file }}
      output: hangul.mp4
  - id: drift
    continue_on_error: true
    ffmpeg:
      captions: \${{ steps.faded.outputs.file }}
      texts: ${JSON.stringify(TEXTS)}
      clips: \${{ steps.clips.outputs.*.file }}
      output: drift.mp4
`;

describe("captions timed from the clips, burnt in (npm ffmpeg 4.1)", () => {
  let service: TestService;
  let result: Awaited<ReturnType<typeof runPipeline>>;
  let events: ReturnType<TestService["options"]>["events"];
  beforeAll(async () => {
    service = await startTestService();
    const dir = join(service.root, "captions");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "pipeline.yaml"), pipelineText);
    const options = service.options();
    events = options.events;
    result = await runPipeline(join(dir, "pipeline.yaml"), options);
  });
  afterAll(() => service.close());

  const outputsOf = (step: string) =>
    result.steps[step]?.outputs as { file: string; srt: string; missing: string[] };

  for (const [step, source, overlap] of [
    ["plain_captions", "joined", 0],
    ["faded_captions", "faded", 0.5],
  ] as const) {
    it(`${step}: the .srt changes caption where the probed clips meet (within one frame)`, async () => {
      expect(result.steps[step]?.status).toBe("succeeded");
      const { file, srt, missing } = outputsOf(step);
      expect(srt).toBe(file.replace(/\.mp4$/, ".srt"));
      expect(missing).toEqual([]);
      const clips = ((result.steps.clips?.outputs ?? []) as { file: string }[]).map((c) => c.file);
      const durations = await Promise.all(
        clips.map(async (clip) => {
          const info = await probe(clip);
          return info.videoDuration ?? info.duration;
        }),
      );
      const video = await probe(file);
      const frame = 1 / (video.fps || 25);
      const cues = await readSrtFile(srt);
      expect(cues.map((cue) => cue.text)).toEqual(TEXTS);
      const starts = clipStarts(durations, overlap);
      // A caption changes where one clip takes over: its start, or the middle of the overlap.
      const changes = starts.slice(1).map((start) => start + overlap / 2);
      expect(cues[0]?.start).toBe(0);
      for (const [i, change] of changes.entries()) {
        expect(Math.abs((cues[i]?.end ?? -1) - change)).toBeLessThanOrEqual(frame);
        expect(Math.abs((cues[i + 1]?.start ?? -1) - change)).toBeLessThanOrEqual(frame);
      }
      // The last caption ends with the joined video, as long as the clips minus the overlaps.
      const joined = await probe(
        String(((result.steps[source]?.outputs ?? {}) as { file: string }).file),
      );
      expect(Math.abs((cues.at(-1)?.end ?? -1) - (joined.videoDuration ?? 0))).toBeLessThanOrEqual(
        frame,
      );
      expect(Math.abs((video.videoDuration ?? 0) - (joined.videoDuration ?? 0))).toBeLessThan(
        frame,
      );
    });
  }

  it("burns each caption into the bottom band and leaves the top band as it was", async () => {
    const clean = String(((result.steps.joined?.outputs ?? {}) as { file: string }).file);
    const { file } = outputsOf("plain_captions");
    const info = await probe(file);
    const cues = await readSrtFile(outputsOf("plain_captions").srt);
    const bottoms: Buffer[] = [];
    for (const cue of cues) {
      const at = (cue.start + cue.end) / 2;
      const [cleanBottom, burntBottom, cleanTop, burntTop] = await Promise.all([
        band(clean, at, info.height - 90, 90),
        band(file, at, info.height - 90, 90),
        band(clean, at, 0, 90),
        band(file, at, 0, 90),
      ]);
      expect(meanDifference(cleanBottom, burntBottom), cue.text).toBeGreaterThan(3);
      expect(meanDifference(cleanTop, burntTop), cue.text).toBeLessThan(1.5);
      bottoms.push(burntBottom);
    }
    // Three different texts (Latin with accents, Japanese, an emoji) look different.
    expect(meanDifference(bottoms[0]!, bottoms[1]!)).toBeGreaterThan(1);
    expect(meanDifference(bottoms[1]!, bottoms[2]!)).toBeGreaterThan(1);
  });

  it("leaves out characters no font has, lists them in `missing` and warns", async () => {
    expect(result.steps.hangul?.status).toBe("succeeded");
    const { missing, srt } = outputsOf("hangul");
    expect(missing).toEqual(["안", "녕"]);
    // An empty text leaves its clip uncaptioned; the SRT keeps what the picture leaves out.
    expect((await readSrtFile(srt)).map((cue) => cue.text)).toEqual(["안녕 hello", "bye"]);
    const warning = events.find(
      (e) => e.type === "log" && e.level === "warn" && e.step === "hangul",
    );
    expect(warning?.type === "log" && warning.message).toContain("no font has 안 녕");
  });

  it("refuses captions whose clips do not add up to the video (a transition not named)", () => {
    const drift = result.steps.drift;
    expect(drift?.status).toBe("failed");
    expect(drift?.error?.message).toContain("the captions would drift from the clips");
    expect(drift?.error?.message).toContain("transition_duration");
    expect(drift?.error?.message).toContain(
      "lasts 3.00 s, but its 3 clips joined end to end last 4.00 s",
    );
  });
});
