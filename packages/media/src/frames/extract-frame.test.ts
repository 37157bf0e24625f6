import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { decodeAllFrames, decodeRgb } from "../../test/frame.js";
import { FrameOutOfRangeError } from "../errors/frame-out-of-range-error.js";
import { type FfmpegTools, locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { probe } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";
import { extractFrame } from "./extract-frame.js";
import { pngSize } from "./png-size.js";

const work = useTempDirectory();
const file = (name: string) => path.join(work(), name);
let tools: FfmpegTools;

/**
 * A 64x36 H.264 clip (B-frames, as libx264 makes by default) whose every frame has its own
 * colour (unique for 43 frames), with a sound track that lasts longer than the picture.
 */
async function colourClip(name: string, rate: string, seconds: number): Promise<string> {
  const output = file(name);
  await runFfmpeg(tools, [
    ...["-f", "lavfi", "-i", `color=c=black:s=64x36:r=${rate}:d=${seconds}`],
    ...["-f", "lavfi", "-i", `sine=f=440:d=${seconds + 0.7}`],
    ...["-vf", "format=gbrp,geq=r='N*6':g='255-N*6':b='mod(N*40,256)'"],
    ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", output],
  ]);
  return output;
}

let clip24: string;
let clip2997: string;
let frames24: Buffer[];
let frames2997: Buffer[];

beforeAll(async () => {
  tools = await locateFfmpeg();
  clip24 = await colourClip("colours 24.mp4", "24", 1.3);
  clip2997 = await colourClip("colours 29.97.mp4", "30000/1001", 1.37);
  frames24 = await decodeAllFrames(tools, clip24, 64, 36, file("all24.rgb"));
  frames2997 = await decodeAllFrames(tools, clip2997, 64, 36, file("all2997.rgb"));
});

/** Which frame of `frames` the PNG shows (-1 when none). */
async function frameIndexOf(png: string, frames: Buffer[]): Promise<number> {
  const picture = await decodeRgb(tools, png, 0, file("png.rgb"));
  return frames.findIndex((frame) => frame.equals(picture));
}

describe("extractFrame", () => {
  it("takes the real last frame, though the sound makes the file longer than the picture", async () => {
    const info = await probe(clip24);
    expect(info.duration).toBeGreaterThan((info.videoDuration ?? 0) + 0.5);
    expect(frames24).toHaveLength(32); // 1.3 s at 24 fps: frames 0…31
    const { output, width, height } = await extractFrame(clip24, {
      at: "last",
      output: file("last 24.png"),
    });
    expect({ width, height }).toEqual({ width: 64, height: 36 });
    const bytes = await readFile(output);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    expect(await pngSize(output)).toEqual({ width: 64, height: 36 });
    expect(await frameIndexOf(output, frames24)).toBe(31);
  });

  it("takes the last frame of a 29.97 fps clip of 1.37 s", async () => {
    const { output } = await extractFrame(clip2997, { at: "last", output: file("last 2997.png") });
    expect(await frameIndexOf(output, frames2997)).toBe(frames2997.length - 1);
  });

  it("finds the frame when frames are further apart than the decoding window (1 fps)", async () => {
    const slow = await colourClip("one per second.mp4", "1", 3);
    const frames = await decodeAllFrames(tools, slow, 64, 36, file("slow.rgb"));
    expect(frames).toHaveLength(3);
    const last = await extractFrame(slow, { at: "last", output: file("slow last.png") });
    expect(await frameIndexOf(last.output, frames)).toBe(2);
    const at = await extractFrame(slow, { at: 1.9, output: file("slow 1.9.png") });
    expect(await frameIndexOf(at.output, frames)).toBe(1);
  });

  it("takes the first frame", async () => {
    const { output } = await extractFrame(clip24, { at: "first", output: file("first.png") });
    expect(await frameIndexOf(output, frames24)).toBe(0);
  });

  it("takes the frame on screen at a second: the last one that started by then", async () => {
    const cases: [number, number][] = [
      [0, 0],
      [0.02, 0],
      [1, 24],
      [0.999, 23],
      [1.25, 30],
    ];
    for (const [at, expected] of cases) {
      const { output } = await extractFrame(clip24, { at, output: file(`at ${at}.png`) });
      expect([at, await frameIndexOf(output, frames24)]).toEqual([at, expected]);
    }
    const { videoDuration } = await probe(clip24);
    const { output } = await extractFrame(clip24, {
      at: videoDuration ?? 0,
      output: file("at end.png"),
    });
    expect(await frameIndexOf(output, frames24)).toBe(31);
  });

  it("refuses a time outside the clip with a coded error, and leaves nothing behind", async () => {
    for (const at of [-0.1, 1.5, 99]) {
      const error = await extractFrame(clip24, { at, output: file("outside.png") }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(FrameOutOfRangeError);
      expect(error).toMatchObject({ code: "frame_out_of_range", at, duration: expect.any(Number) });
      expect((error as Error).message).toMatch(/lasts 1\.3\d*s/);
    }
    await expect(readFile(file("outside.png"))).rejects.toThrow(/ENOENT/);
  });

  it("refuses a name that is not .png and an `at` that is not a frame", async () => {
    await expect(extractFrame(clip24, { at: "last", output: file("frame.jpg") })).rejects.toThrow(
      /\.png/,
    );
    await expect(
      // @ts-expect-error: not one of the accepted values
      extractFrame(clip24, { at: "middle", output: file("frame.png") }),
    ).rejects.toThrow(/"first", "last" or a number/);
  });
});
