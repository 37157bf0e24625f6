import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { decodeAllFrames, meanDifference } from "../../test/frame.js";
import { countFrames, rmsLevel } from "../../test/measure.js";
import { MediaError } from "../errors/media-error.js";
import { type FfmpegTools, locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { probe } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";
import { fitClipToDuration } from "./fit-clip-to-duration.js";
import { fitDurationGraph } from "./fit-duration-graph.js";

const work = useTempDirectory();
const file = (name: string) => path.join(work(), name);
const width = 160;
const height = 90;
let tools: FfmpegTools;
let clip: string;

beforeAll(async () => {
  tools = await locateFfmpeg();
  clip = file("moving.mp4");
  // 1.5 s at 24 fps whose every frame differs (a moving test pattern), with a loud tone.
  await runFfmpeg(tools, [
    ...["-f", "lavfi", "-i", `testsrc2=size=${width}x${height}:rate=24:duration=1.5`],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=1.5"],
    ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip],
  ]);
});

describe("fitDurationGraph", () => {
  it("cuts to the frame, or concatenates the held still before cutting", () => {
    const base = { frames: 24, seconds: 1, rate: "24/1", width, height, sar: "1:1" };
    expect(fitDurationGraph({ ...base, hold: false, audio: false })).toBe(
      "[0:v:0]fps=24/1,setsar=1/1,format=yuv420p,trim=end_frame=24,setpts=PTS-STARTPTS[v]",
    );
    const held = fitDurationGraph({ ...base, hold: true, audio: true });
    expect(held).toContain("[1:v:0]scale=160:90,fps=24/1,setsar=1/1,format=yuv420p[still]");
    expect(held).toContain("[clip][still]concat=n=2:v=1:a=0,trim=end_frame=24");
    expect(held).toMatch(/\[0:a:0\].*apad,atrim=duration=1\.000000,asetpts=PTS-STARTPTS\[a\]$/);
  });
});

describe("fitClipToDuration", () => {
  it("holds a shorter clip's last frame, with silence under it, to the exact frame", async () => {
    const result = await fitClipToDuration(clip, { output: file("held.mp4"), seconds: 2.5 });
    expect(result.action).toBe("held");
    expect(await countFrames(tools, result.output)).toBe(60);
    const info = await probe(result.output);
    expect(info.videoDuration).toBeCloseTo(2.5, 2);
    expect(info.audioDuration ?? 0).toBeGreaterThan(2.45);
    const source = await decodeAllFrames(tools, clip, width, height, file("source.rgb"));
    const frames = await decodeAllFrames(tools, result.output, width, height, file("held.rgb"));
    const last = source[source.length - 1] as Buffer;
    // The clip plays as it was, then its last picture stays on screen.
    expect(meanDifference(frames[10] as Buffer, source[10] as Buffer)).toBeLessThan(4);
    for (const index of [36, 48, 59])
      expect(meanDifference(frames[index] as Buffer, last)).toBeLessThan(4);
    expect(meanDifference(frames[10] as Buffer, last)).toBeGreaterThan(4);
    // The tone plays during the clip; the hold is silent.
    expect(await rmsLevel(tools, result.output, 0.2, 1.3)).toBeGreaterThan(-30);
    expect(await rmsLevel(tools, result.output, 1.7, 2.4)).toBeLessThan(-80);
  });

  it("cuts a longer clip to the frame", async () => {
    const result = await fitClipToDuration(clip, { output: file("cut.mp4"), seconds: 1.01 });
    expect(result).toMatchObject({ action: "trimmed", frames: 24, seconds: 1 });
    expect(await countFrames(tools, result.output)).toBe(24);
    const info = await probe(result.output);
    expect(info.audioDuration ?? 0).toBeCloseTo(1, 1);
  });

  it("refuses to lengthen in trim mode, and to shorten in hold mode", async () => {
    await expect(
      fitClipToDuration(clip, { output: file("no.mp4"), seconds: 3, mode: "trim" }),
    ).rejects.toThrow(/mode "trim" cannot lengthen/);
    const error = await fitClipToDuration(clip, {
      output: file("no.mp4"),
      seconds: 1,
      mode: "hold",
    }).catch((caught: unknown) => caught);
    expect(MediaError.isInstance(error)).toBe(true);
    expect((error as MediaError).code).toBe("invalid_input");
  });
});
