import { copyFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { extractFrame } from "../../test/frame.js";
import { FfmpegError } from "../errors/ffmpeg-error.js";
import { MediaAbortError } from "../errors/media-abort-error.js";
import { probe } from "../probe/probe.js";
import { synthesizeClip } from "./synthesize-clip.js";
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
