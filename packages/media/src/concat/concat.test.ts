import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { withoutAudio } from "../../test/frame.js";
import { MediaAbortError } from "../errors/media-abort-error.js";
import { MediaVerificationError } from "../errors/media-verification-error.js";
import { concatListLine } from "../filters/escape.js";
import { locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";
import { synthesizeClip } from "../synthesize/synthesize-clip.js";
import { type ConcatPlanned, concat } from "./concat.js";
import { verifyOutput } from "./verify-output.js";

const work = useTempDirectory();
const clip = (name: string) => path.join(work(), name);

async function make(name: string, size = "320x240", fps = 24, seconds = 1): Promise<string> {
  const { output } = await synthesizeClip({ output: clip(name), seconds, size, fps, text: name });
  return output;
}

function expectJoined(info: MediaInfo, size: string, fps: number, seconds: number, clips: number) {
  expect(`${info.width}x${info.height}`).toBe(size);
  expect(info.hasVideo).toBe(true);
  expect(info.hasAudio).toBe(true);
  expect(info.fps).toBeCloseTo(fps, 5);
  expect(info.averageFrameRate).toBe(info.frameRate); // constant frame rate
  expect(Math.abs(info.duration - seconds)).toBeLessThanOrEqual(0.1 * clips);
  expect(Math.abs((info.audioDuration ?? 0) - seconds)).toBeLessThanOrEqual(0.1 * clips);
}

let a = "";
let b = "";
let silent = "";

beforeAll(async () => {
  a = await make("-lead 'quote' ü [a], b; c.mp4");
  b = await make("b with spaces.mp4");
  silent = clip("silent clip.mp4");
  await withoutAudio(a, silent);
});

describe("concat", () => {
  it("joins identical clips by stream copy, even with tricky file names", async () => {
    const c = await make("c.mp4");
    const result = await concat([a, b, c], { output: clip("-out 'copy' é.mp4") });
    expect(result.method).toBe("copy");
    expect(result.reasons).toEqual([]);
    const info = await probe(result.output);
    expectJoined(info, "320x240", 24, 3, 3);
    // clips start at their video (inpoint), so no AAC priming gaps accumulate
    expect(info.videoStart).toBe(0);
    expect(info.duration).toBeCloseTo(3, 2);
  });

  it("normalises clips of different sizes to the first clip's size (contain) or an asked size (cover)", async () => {
    const portrait = await make("portrait.mp4", "240x320");
    const small = await make("small.mp4", "160x90");
    const first = await concat([a, portrait, small], { output: clip("sizes.mp4") });
    expect(first.method).toBe("normalize");
    expect(first.reasons.join(" ")).toMatch(/240x320/);
    expectJoined(first.info, "320x240", 24, 3, 3);

    const covered = await concat([portrait, a], {
      output: clip("sizes-cover.mp4"),
      size: "426x240",
      fit: "cover",
    });
    expectJoined(covered.info, "426x240", 24, 2, 2);
  });

  it("normalises mixed 24 and 30 fps clips to the highest rate, constant", async () => {
    const thirty = await make("thirty.mp4", "320x240", 30);
    const result = await concat([a, thirty, b], { output: clip("rates.mp4") });
    expect(result.method).toBe("normalize");
    expectJoined(result.info, "320x240", 30, 3, 3);
  });

  it("keeps every clip's audio when a silent clip comes first and another sits in the middle", async () => {
    const result = await concat([silent, a, silent, b], { output: clip("silences.mp4") });
    expect(result.method).toBe("normalize");
    expect(result.reasons.join(" ")).toMatch(/no audio/);
    expectJoined(result.info, "320x240", 24, 4, 4);
  });

  it("joins with a crossfade on whatever ffmpeg is found: xfade, else fade + overlay", async () => {
    const tools = await locateFfmpeg();
    const result = await concat([a, silent, b], {
      output: clip("xfade.mp4"),
      transition: { type: "crossfade", duration: 0.25 },
    });
    expect(result.method).toBe(tools.capabilities.xfade ? "xfade" : "overlay");
    expectJoined(result.info, "320x240", 24, 3 - 2 * 0.25, 3);
  });

  it("normalises clips of other rates whose lengths fall between frames, each on the frame grid", async () => {
    // 1.3 s at 24 fps and 0.7 s at 30: joined at 30 fps, the first ends between two frames.
    const odd = await make("between-24.mp4", "320x240", 24, 1.3);
    const thirty = await make("between-30.mp4", "320x240", 30, 0.7);
    const later = await make("between-25.mp4", "320x240", 25, 1.15);
    const result = await concat([odd, thirty, later], { output: clip("between.mp4") });
    expect(result.method).toBe("normalize");
    expect(result.info.frameRate).toBe("30/1");
    expectJoined(result.info, "320x240", 30, 1.3 + 0.7 + 1.15, 3);
  });

  it("makes each normalised clip its whole frames, even where the fps filter would end it a frame short", async () => {
    // Clips whose lengths fall between frames of 30 fps: before each was held on its last
    // frame, the fps filter ended one of them a frame before its slot, and the joined
    // picture's average rate read 1215/41.
    const clips = [
      await make("short-30.mp4", "320x240", 30, 1.05),
      await make("short-25.mp4", "320x240", 25, 0.62),
      await make("short-24.mp4", "320x240", 24, 1.01),
    ];
    const slots = (await Promise.all(clips.map((file) => probe(file)))).map((info) =>
      Math.ceil((info.videoDuration ?? 0) * 30 - 1e-3),
    );
    const result = await concat(clips, { output: clip("short.mp4"), fps: 30 });
    expect(result.method).toBe("normalize");
    expect(result.info.averageFrameRate).toBe("30/1");
    const frames = slots.reduce((sum, each) => sum + each, 0);
    expect(result.info.videoDuration).toBe(Number((frames / 30).toFixed(6)));
    expectJoined(result.info, "320x240", 30, frames / 30, 3);
  });

  it("tells the joined picture's planned length before the pass, to the frame its probe gives", async () => {
    // Lengths that are not whole frames: each join's frame count is rounded its own way.
    const odd = [
      await make("odd-1.mp4", "320x240", 24, 1.3),
      await make("odd-2.mp4", "320x240", 24, 0.9),
      await make("odd-3.mp4", "320x240", 24, 1.15),
    ];
    const thirty = await make("odd-30.mp4", "320x240", 30, 0.7);
    const portrait = await make("odd-portrait.mp4", "240x320", 24, 0.8);
    const joins = [
      { clips: odd, method: "copy" },
      { clips: [odd[0] as string, portrait, odd[1] as string], method: "normalize" },
      { clips: odd, method: /xfade|overlay/, transition: { type: "crossfade", duration: 0.3 } },
      {
        clips: [thirty, ...odd],
        method: /xfade|overlay/,
        transition: { type: "fade", duration: 0.2 },
      },
    ] as const;
    for (const [index, join] of joins.entries()) {
      const told: ConcatPlanned[] = [];
      const before: boolean[] = [];
      const output = clip(`planned-${index}.mp4`);
      const result = await concat(join.clips, {
        output,
        ...("transition" in join ? { transition: join.transition } : {}),
        onPlan: (plan) => {
          told.push(plan);
          before.push(existsSync(output));
        },
      });
      expect(told, join.method.toString()).toHaveLength(1);
      expect(told[0]?.method).toMatch(join.method);
      expect(before).toEqual([false]);
      expect(told[0]?.seconds, `${result.method}`).toBe(result.info.videoDuration);
      expect(told[0]?.rate).toBe(result.info.frameRate);
    }
  });

  it("reports progress of the whole output, ending at 100", async () => {
    const seen: number[] = [];
    await concat([a, silent], {
      output: clip("progress.mp4"),
      onProgress: (p) => seen.push(p.percent),
    });
    expect(seen.at(-1)).toBe(100);
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);
  });

  it("kills ffmpeg on abort and leaves neither output nor scratch files", async () => {
    const directory = clip("aborted");
    // cheap to make (1 fps, tiny), slow to normalise (1080p60): the abort lands mid-encode
    const long = await synthesizeClip({
      output: clip("long.mp4"),
      seconds: 30,
      size: "160x90",
      fps: 1,
      text: "long",
    });
    const controller = new AbortController();
    const pending = concat([long.output, a], {
      output: path.join(directory, "never.mp4"),
      size: "1920x1080",
      fps: 60,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(pending).rejects.toBeInstanceOf(MediaAbortError);
    expect(await readdir(directory)).toEqual([]);
  });

  it("does not start when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      concat([a, b], { output: clip("pre-aborted.mp4"), signal: controller.signal }),
    ).rejects.toBeInstanceOf(MediaAbortError);
  });

  it("rejects an empty list", async () => {
    await expect(concat([], { output: clip("empty.mp4") })).rejects.toThrow(/non-empty/);
  });
});

describe("verifyOutput", () => {
  it("catches the broken file a plain copy join of a silent first clip produces", async () => {
    const tools = await locateFfmpeg();
    const broken = clip("plain-copy.mp4");
    const list = clip("plain-list.txt");
    await writeFile(list, [silent, a, b].map(concatListLine).join("\n"));
    // what a naive join does: exits 0 and writes a file whose audio is missing or short
    await runFfmpeg(tools, ["-f", "concat", "-safe", "0", "-i", list, "-c", "copy", broken]);
    const error = await verifyOutput(tools, broken, { duration: 3, tolerance: 0.3 }, broken).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MediaVerificationError);
    expect((error as MediaVerificationError).problems.join(" ")).toMatch(/audio/);
  });
});
