import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { decodeAllFrames, meanDifference, withoutAudio } from "../../test/frame.js";
import { locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { synthesizeClip } from "../synthesize/synthesize-clip.js";
import { fit } from "./fit.js";
import { setAudio } from "./set-audio.js";
import { subtitles } from "./subtitles.js";
import { trim } from "./trim.js";

const work = useTempDirectory();
const file = (name: string) => path.join(work(), name);
let clip = "";
let silent = "";
let tone = "";

beforeAll(async () => {
  clip = (
    await synthesizeClip({
      output: file("-two 'sec' ü.mp4"),
      seconds: 2,
      size: "320x240",
      fps: 24,
      text: "two",
    })
  ).output;
  tone = (
    await synthesizeClip({ output: file("tone.mp4"), seconds: 0.5, size: "160x120", text: "tone" })
  ).output;
  silent = file("silent.mp4");
  await withoutAudio(clip, silent);
});

describe("intermediate outputs", () => {
  it("writes the picture losslessly when only another pass reads it, and tells each command line", async () => {
    const tools = await locateFfmpeg();
    const told: (readonly string[])[] = [];
    const onCommand = ({ args }: { args: readonly string[] }) => told.push(args);
    const kept = await trim(clip, {
      output: file("kept.mp4"),
      start: 0,
      intermediate: true,
      onCommand,
    });
    const final = await trim(clip, { output: file("final.mp4"), start: 0, onCommand });
    expect(told).toHaveLength(2);
    expect(told[0]).toEqual(expect.arrayContaining(["-qp", "0", "-preset", "ultrafast"]));
    expect(told[1]).toEqual(expect.arrayContaining(["-crf", "20"]));
    expect(told[1]).not.toContain("-qp");
    const decode = (video: string, name: string) =>
      decodeAllFrames(tools, video, 320, 240, file(name));
    const source = await decode(clip, "source.rgb");
    const lossless = await decode(kept.output, "kept.rgb");
    const lossy = await decode(final.output, "final.rgb");
    expect(lossless).toHaveLength(source.length);
    // Every frame as the source decodes: nothing lost.
    for (const [index, frame] of lossless.entries())
      expect(frame.equals(source[index] as Buffer), `frame ${index}`).toBe(true);
    // The final's encode loses a little (what the lossless one keeps).
    expect(meanDifference(Buffer.concat(lossy), Buffer.concat(source))).toBeGreaterThan(0);
  });
});

describe("trim", () => {
  it("cuts between start and end, frame-accurately", async () => {
    const { info } = await trim(clip, { output: file("-cut [1].mp4"), start: 0.5, end: 1.5 });
    expect(info.duration).toBeCloseTo(1, 1);
    expect(info.hasAudio).toBe(true);
    expect(info.videoDuration).toBeCloseTo(1, 1);
  });

  it("takes a duration instead of an end, and keeps a silent clip silent", async () => {
    const { info } = await trim(silent, { output: file("cut-silent.mp4"), duration: 0.5 });
    expect(info.duration).toBeCloseTo(0.5, 1);
    expect(info.hasAudio).toBe(false);
  });

  it("rejects ranges outside the clip", async () => {
    await expect(trim(clip, { output: file("x.mp4"), start: 5 })).rejects.toThrow(/before the end/);
    await expect(trim(clip, { output: file("x.mp4"), start: 1, end: 0.5 })).rejects.toThrow(
      /after/,
    );
    await expect(trim(clip, { output: file("x.mp4"), end: 1, duration: 1 })).rejects.toThrow(
      /not both/,
    );
  });
});

describe("fit", () => {
  it("letterboxes (contain) or crops (cover) to an exact size", async () => {
    for (const mode of ["contain", "cover"] as const) {
      const { info } = await fit(clip, { output: file(`fit-${mode}.mp4`), size: "180x320", mode });
      expect(info).toMatchObject({ width: 180, height: 320, hasAudio: true, sar: "1:1" });
      expect(info.duration).toBeCloseTo(2, 1);
    }
  });
});

describe("setAudio", () => {
  it("replaces the sound with a looped track cut to the video", async () => {
    const { info } = await setAudio(silent, {
      output: file("looped.mp4"),
      audio: tone,
      loop: true,
      fadeIn: 0.2,
      fadeOut: 0.5,
      volume: 0.8,
    });
    expect(info.hasAudio).toBe(true);
    expect(info.audioDuration).toBeCloseTo(2, 1);
    expect(info.duration).toBeCloseTo(2, 1);
  });

  it("pads a short track with silence when not looping, and mixes with the clip's own sound", async () => {
    const { info } = await setAudio(clip, { output: file("mixed.mp4"), audio: tone, mode: "mix" });
    expect(info.audioStreams).toBe(1);
    expect(info.audioDuration).toBeCloseTo(2, 1);
  });

  it("adds a second audio track", async () => {
    const { info } = await setAudio(clip, { output: file("added.mp4"), audio: tone, mode: "add" });
    expect(info.audioStreams).toBe(2);
  });

  it("refuses an audio file without audio", async () => {
    await expect(setAudio(clip, { output: file("none.mp4"), audio: silent })).rejects.toThrow(
      /audio stream/,
    );
  });
});

describe("subtitles", () => {
  let srt = "";
  beforeAll(async () => {
    srt = file("it's: [subs], 50%; ok.srt");
    await writeFile(srt, "1\n00:00:00,000 --> 00:00:01,500\nHello, 'world' — ü\n\n");
  });

  it("burns an SRT into the picture with the bundled font", async () => {
    const { info } = await subtitles(clip, { output: file("burnt.mp4"), file: srt });
    expect(info).toMatchObject({ width: 320, height: 240, hasAudio: true, subtitleStreams: 0 });
  });

  it("adds a soft subtitle track to MP4 (mov_text) and MKV", async () => {
    const mp4 = await subtitles(clip, { output: file("soft.mp4"), file: srt, mode: "soft" });
    expect(mp4.info.subtitleStreams).toBe(1);
    const mkv = await subtitles(clip, { output: file("soft.mkv"), file: srt, mode: "soft" });
    expect(mkv.info.subtitleStreams).toBe(1);
  });
});
