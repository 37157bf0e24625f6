import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { decodeAllFrames, decodeRgb, meanDifference } from "../../test/frame.js";
import { concat } from "../concat/concat.js";
import { CaptionsFileError } from "../errors/captions-file-error.js";
import { CaptionsInputError } from "../errors/captions-input-error.js";
import { MediaAbortError } from "../errors/media-abort-error.js";
import { bundledFontFile } from "../locate/font-file.js";
import { type FfmpegTools, locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { probe } from "../probe/probe.js";
import { synthesizeClip } from "../synthesize/synthesize-clip.js";
import { burnCaptions } from "./burn-captions.js";
import type { CaptionCue } from "./caption-cue.js";
import { captionCues } from "./caption-cues.js";
import { clipDurations } from "./clip-durations.js";
import { formatSrt } from "./format-srt.js";
import { parseSrt } from "./parse-srt.js";

const work = useTempDirectory();
const file = (name: string) => path.join(work(), name);
const width = 320;
const height = 180;
const fps = 24;
const frame = 1 / fps;
const backgrounds: [number, number, number][] = [
  [0xc0, 0x30, 0x30],
  [0x30, 0xa0, 0x30],
  [0x30, 0x30, 0xc0],
];
let tools: FfmpegTools;
const clips: string[] = [];
let plain: string;

beforeAll(async () => {
  tools = await locateFfmpeg();
  // Lengths that are not whole seconds nor whole frames apart.
  for (const [index, seconds] of [1.25, 1.75, 1.0].entries()) {
    const [red, green, blue] = backgrounds[index] ?? [0, 0, 0];
    const hex = [red, green, blue].map((value) => value.toString(16).padStart(2, "0")).join("");
    const { output } = await synthesizeClip({
      output: file(`scene ${index}.mp4`),
      seconds,
      size: `${width}x${height}`,
      fps,
      text: `${index + 1}`,
      background: `#${hex}`,
    });
    clips.push(output);
  }
  const { output } = await synthesizeClip({
    output: file("plain.mp4"),
    seconds: 3,
    size: `${width}x${height}`,
    fps,
    text: "·",
    background: "#406080",
  });
  plain = output;
});

/** The frame index at which each clip after the first takes over the joined video's picture. */
async function takeovers(video: string): Promise<number[]> {
  const frames = await decodeAllFrames(tools, video, width, height, file("frames.rgb"));
  // The top-left corner, away from the text drawn in the middle.
  const corner = (picture: Buffer) => {
    const sum = [0, 0, 0];
    for (let y = 0; y < 16; y++)
      for (let x = 0; x < 16; x++)
        for (let channel = 0; channel < 3; channel++)
          sum[channel] = (sum[channel] ?? 0) + (picture[(y * width + x) * 3 + channel] ?? 0);
    return sum.map((value) => value / 256);
  };
  const distance = (a: number[], b: readonly number[]) =>
    Math.hypot(...a.map((value, channel) => value - (b[channel] ?? 0)));
  const colours = frames.map(corner);
  return [1, 2].map((clip) =>
    colours.findIndex(
      (colour) =>
        distance(colour, backgrounds[clip] ?? []) < distance(colour, backgrounds[clip - 1] ?? []),
    ),
  );
}

describe("caption timing on joined clips", () => {
  it("changes captions where the clips change, within a frame (no transition)", async () => {
    const durations = await clipDurations(clips);
    const cues = parseSrt(formatSrt(captionCues({ texts: ["One", "Two", "Three"], durations })));
    const joined = await concat(clips, { output: file("joined.mp4") });
    const [second, third] = await takeovers(joined.output);
    expect(second).toBeGreaterThan(0);
    expect(Math.abs((cues[1]?.start ?? 0) - (second ?? 0) * frame)).toBeLessThanOrEqual(frame);
    expect(Math.abs((cues[2]?.start ?? 0) - (third ?? 0) * frame)).toBeLessThanOrEqual(frame);
    const { videoDuration } = await probe(joined.output);
    expect(Math.abs((cues[2]?.end ?? 0) - (videoDuration ?? 0))).toBeLessThanOrEqual(frame);
  });

  it("changes captions at the middle of each 0.5 s crossfade, within a frame", async () => {
    const transition = { type: "crossfade" as const, duration: 0.5 };
    const durations = await clipDurations(clips);
    const cues = parseSrt(
      formatSrt(captionCues({ texts: ["One", "Two", "Three"], durations, transition })),
    );
    const joined = await concat(clips, { output: file("crossfaded.mp4"), transition });
    // The first frame more the next clip's than the previous one's is the blend's middle.
    const [second, third] = await takeovers(joined.output);
    expect(Math.abs((cues[1]?.start ?? 0) - (second ?? 0) * frame)).toBeLessThanOrEqual(frame);
    expect(Math.abs((cues[2]?.start ?? 0) - (third ?? 0) * frame)).toBeLessThanOrEqual(frame);
    const { videoDuration } = await probe(joined.output);
    expect(Math.abs((cues[2]?.end ?? 0) - (videoDuration ?? 0))).toBeLessThanOrEqual(frame);
    expect(cues[2]?.end).toBeCloseTo(1.25 + 1.75 + 1.0 - 2 * 0.5, 2);
  });
});

const band = {
  top: { y: 0, height: 40 },
  bottom: { y: height - 50, height: 50 },
} as const;

describe("burnCaptions", () => {
  // Pairs in the same script: two renderings of real glyphs differ, two fallback boxes would not.
  const texts = [
    "Café niño smørrebrød",
    "Ça va? Ñandú, Øre!",
    "日本語の字幕",
    "中文字幕",
    "🎬🎬🎬",
    "🌅🌅🌅",
  ];
  const cues: CaptionCue[] = texts.map((text, index) => ({
    index,
    start: index * 0.5,
    end: index * 0.5 + 0.5,
    text,
  }));
  const bands = async (video: string, at: number) => ({
    top: await decodeRgb(tools, video, at, file("top.rgb"), band.top),
    bottom: await decodeRgb(tools, video, at, file("bottom.rgb"), band.bottom),
  });

  it("draws Latin with accents, CJK and emoji in the bottom band, and writes the SRT beside", async () => {
    const result = await burnCaptions(plain, {
      output: file("captioned.mp4"),
      cues,
      style: { fontSize: 28, color: "#ffd500", outlineWidth: 2, outlineColor: "black" },
      srtOutput: true,
    });
    expect(result.missing).toEqual([]);
    expect(result.info).toMatchObject({ width, height, hasAudio: true });
    expect(result.srtOutput).toBe(file("captioned.srt"));
    expect(parseSrt(await readFile(file("captioned.srt"), "utf8"))).toEqual(cues);
    const captioned: Buffer[] = [];
    for (const cue of cues) {
      const at = cue.start + 0.25;
      const clean = await bands(plain, at);
      const burnt = await bands(result.output, at);
      expect([cue.text, meanDifference(clean.bottom, burnt.bottom)]).toEqual([
        cue.text,
        expect.toSatisfy((difference: number) => difference > 3),
      ]);
      expect([cue.text, meanDifference(clean.top, burnt.top)]).toEqual([
        cue.text,
        expect.toSatisfy((difference: number) => difference < 1),
      ]);
      captioned.push(burnt.bottom);
    }
    for (const pair of [0, 2, 4]) {
      const [a, b] = [captioned[pair], captioned[pair + 1]] as [Buffer, Buffer];
      expect([texts[pair], meanDifference(a, b)]).toEqual([
        texts[pair],
        expect.toSatisfy((difference: number) => difference > 2),
      ]);
    }
  });

  it("puts captions at the top when asked, and leaves out what no font has", async () => {
    const result = await burnCaptions(plain, {
      output: file("top.mp4"),
      cues: [{ index: 0, start: 0, end: 3, text: "Top 한국어 caption" }],
      style: { fontSize: 28, position: "top", margin: 8 },
    });
    expect(result.missing).toEqual(["한", "국", "어"]);
    const clean = await bands(plain, 1);
    const burnt = await bands(result.output, 1);
    expect(meanDifference(clean.top, burnt.top)).toBeGreaterThan(3);
    expect(meanDifference(clean.bottom, burnt.bottom)).toBeLessThan(1);
  });

  it("draws with a given font first", async () => {
    const serif = path.join(path.dirname(bundledFontFile()), "DejaVuSerif.ttf");
    const one = [{ index: 0, start: 0, end: 3, text: "Serif or sans" }];
    const sans = await burnCaptions(plain, { output: file("sans.mp4"), cues: one });
    const withSerif = await burnCaptions(plain, {
      output: file("serif.mp4"),
      cues: one,
      fonts: [serif],
    });
    const a = await decodeRgb(tools, sans.output, 1, file("a.rgb"), band.bottom);
    const b = await decodeRgb(tools, withSerif.output, 1, file("b.rgb"), band.bottom);
    expect(meanDifference(a, b)).toBeGreaterThan(1);
  });

  it("burns an SRT file", async () => {
    const srt = file("story.srt");
    await writeFile(srt, "1\r\n00:00:00,500 --> 00:00:02,500\r\nFrom a file: été\r\n", "utf8");
    const result = await burnCaptions(plain, { output: file("from-file.mp4"), srtFile: srt });
    expect(result.cues).toEqual([{ index: 0, start: 0.5, end: 2.5, text: "From a file: été" }]);
    const clean = await decodeRgb(tools, plain, 1.5, file("c.rgb"), band.bottom);
    const burnt = await decodeRgb(tools, result.output, 1.5, file("d.rgb"), band.bottom);
    expect(meanDifference(clean, burnt)).toBeGreaterThan(1);
  });

  it("stops when aborted and leaves neither output nor scratch files", async () => {
    const controller = new AbortController();
    const burning = burnCaptions(plain, {
      output: file("aborted.mp4"),
      cues: [{ index: 0, start: 0, end: 3, text: "Never finished" }],
      signal: controller.signal,
      srtOutput: true,
    });
    controller.abort(new Error("user cancelled"));
    await expect(burning).rejects.toBeInstanceOf(MediaAbortError);
    const left = await readdir(work());
    expect(left.filter((name) => name.startsWith("aborted") || name.startsWith("."))).toEqual([]);
  });

  it("refuses a missing or malformed SRT and missing or empty captions, writing nothing", async () => {
    const output = file("refused.mp4");
    await expect(
      burnCaptions(plain, { output, srtFile: file("missing.srt") }),
    ).rejects.toMatchObject({ code: "captions_file_unreadable", message: /no such file/ });
    const broken = file("broken.srt");
    await writeFile(broken, "1\n00:00:01 --> soon\nHello\n", "utf8");
    const error = await burnCaptions(plain, { output, srtFile: broken }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CaptionsFileError);
    expect(error).toMatchObject({ code: "captions_file_invalid", line: 2 });
    await expect(burnCaptions(plain, { output })).rejects.toThrow(CaptionsInputError);
    await expect(burnCaptions(plain, { output, cues: [] })).rejects.toMatchObject({
      code: "invalid_captions",
      message: /non-empty list/,
    });
    await expect(
      burnCaptions(plain, { output, cues: [{ index: 0, start: 2, end: 1, text: "x" }] }),
    ).rejects.toMatchObject({ code: "invalid_captions", index: 0 });
    await expect(readFile(output)).rejects.toThrow(/ENOENT/);
  });
});
