import { copyFile, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { extractFrame } from "../../test/frame.js";
import { FfmpegError } from "../errors/ffmpeg-error.js";
import { MediaAbortError } from "../errors/media-abort-error.js";
import { locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { probe } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";
import { clipVideoGraph, synthesizeClip } from "./synthesize-clip.js";
import { wrapText } from "./wrap-text.js";

const work = useTempDirectory();

describe("synthesizeClip", () => {
  it("makes an H.264 + AAC MP4 of exactly the asked length and size", async () => {
    const output = path.join(work(), "scene 1 — l'aube.mp4");
    const result = await synthesizeClip({
      output,
      seconds: 1.5,
      size: "320x240",
      fps: 24,
      text: "Text with 'quotes': colons, [brackets]; semicolons, 100% and \\ backslash",
    });
    expect(result.output).toBe(output);
    const info = await probe(output);
    expect(info).toMatchObject({
      width: 320,
      height: 240,
      fps: 24,
      videoCodec: "h264",
      audioCodec: "aac",
    });
    expect(info.duration).toBeCloseTo(1.5, 1);
    expect(info.videoDuration).toBeCloseTo(1.5, 2);
  });

  it("uses a reference image as the background, cropped to cover the frame", async () => {
    const image = path.join(work(), "-ref image %d.png");
    await synthesizeClip({
      output: path.join(work(), "ref.mp4"),
      seconds: 0.5,
      size: "320x180",
      text: "ref",
    });
    await extractFrame(path.join(work(), "ref.mp4"), image);
    const { info } = await synthesizeClip({
      output: path.join(work(), "from image.mp4"),
      seconds: 1,
      size: "240x320",
      text: "portrait",
      image,
    });
    expect(info).toMatchObject({ width: 240, height: 320 });
  });

  it("reads a picture whatever its extension, and fails (not hangs) on one that is not a picture", async () => {
    const png = path.join(work(), "frame.png");
    await extractFrame(path.join(work(), "ref.mp4"), png);
    const odd = path.join(work(), "reference.img");
    await copyFile(png, odd);
    const { info } = await synthesizeClip({
      output: path.join(work(), "odd.mp4"),
      seconds: 0.5,
      size: "320x240",
      text: "odd",
      image: odd,
    });
    expect(info).toMatchObject({ width: 320, height: 240 });

    const garbage = path.join(work(), "garbage.png");
    await writeFile(garbage, "this is not a picture");
    await expect(
      synthesizeClip({
        output: path.join(work(), "garbage.mp4"),
        seconds: 0.5,
        size: "320x240",
        text: "x",
        image: garbage,
      }),
    ).rejects.toBeInstanceOf(FfmpegError);
  });

  it("rejects a background that could inject filter syntax", async () => {
    await expect(
      synthesizeClip({
        output: path.join(work(), "x.mp4"),
        seconds: 1,
        size: "320x240",
        text: "x",
        background: "red,drawbox",
      }),
    ).rejects.toThrow(TypeError);
    await expect(
      synthesizeClip({
        output: path.join(work(), "x.mp4"),
        seconds: 1,
        size: "321x240",
        text: "x",
      }),
    ).rejects.toThrow(/even/);
  });

  it("leaves nothing behind when aborted", async () => {
    const directory = path.join(work(), "aborted");
    const controller = new AbortController();
    const pending = synthesizeClip({
      output: path.join(directory, "long.mp4"),
      seconds: 600,
      size: "640x360",
      text: "never finished",
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(pending).rejects.toBeInstanceOf(MediaAbortError);
    expect(await readdir(directory)).toEqual([]);
  });
});

describe("wrapText", () => {
  it("wraps at spaces, splits long words and ellipsises overflow", () => {
    expect(wrapText("a storm over the harbour at night", 12, 3)).toEqual([
      "a storm over",
      "the harbour",
      "at night",
    ]);
    expect(wrapText("abcdefghij", 4, 5)).toEqual(["abcd", "efgh", "ij"]);
    expect(wrapText("one two three four", 4, 2)).toEqual(["one", "two…"]);
  });
});

describe("clips from a picture", () => {
  /** Every frame of `video` as 32×18 grey bytes, one Buffer each (decoded with plain ffmpeg). */
  async function greyFrames(video: string): Promise<Buffer[]> {
    const raw = path.join(work(), `${path.basename(video)}.gray`);
    await runFfmpeg(await locateFfmpeg(), [
      "-i",
      video,
      "-vf",
      "scale=32:18",
      "-pix_fmt",
      "gray",
      "-f",
      "rawvideo",
      raw,
    ]);
    const bytes = await readFile(raw);
    return Array.from({ length: bytes.length / (32 * 18) }, (_, index) =>
      bytes.subarray(index * 32 * 18, (index + 1) * 32 * 18),
    );
  }

  it("builds one text layer at most, and none over a picture without text", () => {
    const base = { width: 854, height: 480, fps: 24, seconds: 4 };
    const layers = (graph: string) => graph.match(/drawtext=/g)?.length ?? 0;
    expect(layers(clipVideoGraph({ ...base, drawtext: "text='x'" }))).toBe(1);
    expect(layers(clipVideoGraph({ ...base, image: true, drawtext: "text='x'" }))).toBe(1);
    const still = clipVideoGraph({ ...base, image: true, motion: "zoom" });
    expect(layers(still)).toBe(0);
    expect(still).toContain("zoompan=");
    expect(still).toContain(":d=96:s=854x480:fps=24");
  });

  it("pushes in on the picture: exact frames and length, first and last frames differ", async () => {
    const picture = path.join(work(), "picture.png");
    await synthesizeClip({
      output: path.join(work(), "picture.mp4"),
      seconds: 0.2,
      size: "640x360",
      text: "A lighthouse keeper finds a red fox",
    });
    await extractFrame(path.join(work(), "picture.mp4"), picture);
    const output = path.join(work(), "moving.mp4");
    const { info } = await synthesizeClip({
      output,
      seconds: 1.5,
      size: "320x180",
      image: picture,
    });
    expect(info).toMatchObject({ width: 320, height: 180, fps: 24 });
    expect(info.videoDuration).toBeCloseTo(1.5, 2);
    const frames = await greyFrames(output);
    expect(frames).toHaveLength(36);
    const [first, last] = [frames[0], frames.at(-1)];
    const difference = (first ?? Buffer.alloc(0)).reduce(
      (sum, value, index) => sum + Math.abs(value - (last?.[index] ?? 0)),
      0,
    );
    expect(difference).toBeGreaterThan(200);

    const still = path.join(work(), "still.mp4");
    await synthesizeClip({
      output: still,
      seconds: 1,
      size: "320x180",
      image: picture,
      motion: "none",
    });
    const stills = await greyFrames(still);
    expect(stills).toHaveLength(24);
    const held = (stills[0] ?? Buffer.alloc(0)).reduce(
      (sum, value, index) => sum + Math.abs(value - (stills.at(-1)?.[index] ?? 0)),
      0,
    );
    expect(held).toBeLessThan(difference / 4);
  });
});
