import { describe, expect, it } from "vitest";
import { ffmpegErrorLine } from "./ffmpeg-error-line.js";

describe("ffmpegErrorLine", () => {
  it("finds the cause before ffmpeg's trailers, without the object prefix", () => {
    const output = [
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'a.mp4':",
      "  Duration: 00:00:02.00, start: 0.000000, bitrate: 97 kb/s",
      "[Parsed_subtitles_0 @ 0x55d1c7a0] Unable to open /tmp/missing.srt",
      "[AVFilterGraph @ 0x55d1c7b0] Error initializing filter 'subtitles' with args '/tmp/missing.srt'",
      "Error opening filters!",
    ].join("\n");
    expect(ffmpegErrorLine(output)).toBe("Unable to open /tmp/missing.srt");
  });

  it("names a missing input", () => {
    expect(ffmpegErrorLine("x.mp4: No such file or directory\n")).toBe(
      "x.mp4: No such file or directory",
    );
  });

  it("falls back to the last line that is not a trailer or progress", () => {
    expect(ffmpegErrorLine("something odd happened\nframe=  10 fps=0\nConversion failed!\n")).toBe(
      "something odd happened",
    );
    expect(ffmpegErrorLine("Conversion failed!\n")).toBe("Conversion failed!");
    expect(ffmpegErrorLine("")).toBeUndefined();
  });
});
