import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { FfmpegError } from "../errors/ffmpeg-error.js";
import { synthesizeClip } from "../synthesize/synthesize-clip.js";
import { parseRate } from "./parse-rate.js";
import { probe } from "./probe.js";

const work = useTempDirectory();

describe("probe", () => {
  it("reports size, rate, aspect, pixel format, codecs and audio layout", async () => {
    const { output } = await synthesizeClip({
      output: path.join(work(), "probe me.mp4"),
      seconds: 1,
      size: "320x240",
      fps: 30,
      text: "probe",
    });
    const info = await probe(output);
    expect(info).toMatchObject({
      width: 320,
      height: 240,
      fps: 30,
      frameRate: "30/1",
      averageFrameRate: "30/1",
      sar: "1:1",
      pixelFormat: "yuv420p",
      videoCodec: "h264",
      audioCodec: "aac",
      hasAudio: true,
      hasVideo: true,
      sampleRate: 48000,
      channels: 2,
    });
    expect(info.duration).toBeCloseTo(1, 1);
  });

  it("fails with the exit code and stderr tail for a file that is not media", async () => {
    const error = await probe(path.join(work(), "missing.mp4")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FfmpegError);
    expect((error as FfmpegError).exitCode).not.toBe(0);
    expect((error as FfmpegError).stderrTail).toMatch(/No such file/);
  });
});

describe("parseRate", () => {
  it("reads fractions and tolerates 0/0", () => {
    expect(parseRate("30000/1001")).toBeCloseTo(29.97, 2);
    expect(parseRate("24/1")).toBe(24);
    expect(parseRate("0/0")).toBe(0);
  });
});
