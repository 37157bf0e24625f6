import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Build, bundledBuild, systemBuild, withoutXfade } from "../../test/builds.js";
import { useTempDirectory } from "../../test/fixtures.js";
import { cornerColour, withoutAudio } from "../../test/frame.js";
import { UnsupportedCapabilityError } from "../errors/unsupported-capability-error.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import { probe } from "../probe/probe.js";
import { synthesizeClip } from "../synthesize/synthesize-clip.js";
import { concat } from "./concat.js";
import { clipStarts } from "./transition-graph.js";

// Three clips of 1 s, 1.5 s (silent) and 1 s at 24 fps joined with 0.5 s transitions: the
// clips start at 0, 0.5 and 1.5 s, the output lasts 3.5 − 2 × 0.5 = 2.5 s, and the
// transitions' midpoints (0.75 s, 1.75 s) fall on frames 18 and 42.
const fps = 24;
const lengths = [1, 1.5, 1];
const overlap = 0.5;
const expected = 2.5;
const colours = ["red", "blue", "white"];

const work = useTempDirectory();
const file = (name: string) => path.join(work(), name);
let clips: string[] = [];
let bundled: Build;

beforeAll(async () => {
  bundled = await bundledBuild();
  const made = await Promise.all(
    lengths.map((seconds, index) =>
      synthesizeClip({
        output: file(`clip-${index}.mp4`),
        seconds,
        size: "160x120",
        fps,
        text: `${index}`,
        background: colours[index] ?? "black",
        tools: bundled.tools,
      }),
    ),
  );
  clips = made.map((clip) => clip.output);
  const silent = file("clip-1-silent.mp4");
  await withoutAudio(clips[1] as string, silent);
  clips[1] = silent;
}, 60_000);

/** The colour at `at` seconds of `video`, read with the bundled ffmpeg. */
const colourAt = (video: string, at: number) =>
  cornerColour(bundled.tools, video, at - 1 / (4 * fps), `${video}.${at}.rgb`);

const near = (actual: readonly number[], wanted: readonly number[], tolerance: number) =>
  actual.every((value, index) => Math.abs(value - (wanted[index] ?? 0)) <= tolerance);

async function joinAndCheck(tools: FfmpegTools, name: string, type: "crossfade" | "fade") {
  const output = file(`${name}-${type}.mp4`);
  const result = await concat(clips, { output, transition: { type, duration: overlap }, tools });
  const info = await probe(output, { tools: bundled.tools });
  expect(info.hasAudio).toBe(true);
  expect(info.width).toBe(160);
  expect(info.fps).toBeCloseTo(fps, 5);
  expect(Math.abs((info.videoDuration ?? 0) - expected)).toBeLessThanOrEqual(1 / fps + 1e-6);
  expect(Math.abs((info.audioDuration ?? 0) - expected)).toBeLessThanOrEqual(0.05);
  expect(Math.abs(info.duration - expected)).toBeLessThanOrEqual(0.05);
  return { result, output };
}

async function expectCrossfade(output: string) {
  const first = await colourAt(output, 0.25);
  const second = await colourAt(output, 1.1);
  const third = await colourAt(output, 2.3);
  expect(near(first, [255, 0, 0], 40)).toBe(true);
  expect(near(second, [0, 0, 255], 40)).toBe(true);
  expect(near(third, [255, 255, 255], 40)).toBe(true);
  // halfway through each transition the frame is half of each clip
  const blend = (a: readonly number[], b: readonly number[]) =>
    a.map((value, index) => (value + (b[index] ?? 0)) / 2);
  expect(await colourAt(output, 0.75)).toSatisfy((c: number[]) =>
    near(c, blend(first, second), 16),
  );
  expect(await colourAt(output, 1.75)).toSatisfy((c: number[]) =>
    near(c, blend(second, third), 16),
  );
}

/**
 * A dip through black: the clips themselves before and after, and each transition's midpoint
 * far darker than a blend of its neighbours would be. The fallback reaches black exactly at
 * the midpoint (`black: true`); xfade's `fadeblack` eases, so its midpoint is only dark.
 */
async function expectDipToBlack(output: string, options: { black: boolean }) {
  const brightness = (colour: readonly number[]) => colour.reduce((sum, value) => sum + value, 0);
  const red = await colourAt(output, 0.25);
  const blue = await colourAt(output, 1.1);
  const white = await colourAt(output, 2.3);
  expect(near(red, [255, 0, 0], 40)).toBe(true);
  expect(near(blue, [0, 0, 255], 40)).toBe(true);
  expect(near(white, [255, 255, 255], 40)).toBe(true);
  for (const [at, before, after] of [
    [0.75, red, blue],
    [1.75, blue, white],
  ] as const) {
    const middle = await colourAt(output, at);
    const blend = (brightness(before) + brightness(after)) / 2;
    expect(brightness(middle)).toBeLessThan(0.6 * blend);
    if (options.black) expect(near(middle, [0, 0, 0], 24)).toBe(true);
  }
  if (options.black) {
    // a quarter into the second transition the blue clip is darker but not black yet
    const dimming = await colourAt(output, 1.625);
    expect(dimming[2]).toBeGreaterThan(30);
    expect(dimming[2]).toBeLessThan(200);
  }
}

describe("transitions without xfade (fade + overlay)", () => {
  it("crossfades on the bundled ffmpeg: length sum − (n−1)·d, blended midpoints, sound", async () => {
    const tools = bundled.tools.capabilities.xfade ? withoutXfade(bundled.tools) : bundled.tools;
    const { result, output } = await joinAndCheck(tools, "bundled", "crossfade");
    expect(result.method).toBe("overlay");
    await expectCrossfade(output);
  });

  it("dips through black on the bundled ffmpeg", async () => {
    const tools = bundled.tools.capabilities.xfade ? withoutXfade(bundled.tools) : bundled.tools;
    const { result, output } = await joinAndCheck(tools, "bundled", "fade");
    expect(result.method).toBe("overlay");
    await expectDipToBlack(output, { black: true });
  });

  it("refuses before any work when neither xfade nor the fallback filters exist", async () => {
    const tools = {
      ...bundled.tools,
      capabilities: { ...bundled.tools.capabilities, xfade: false, transitions: false },
    };
    const error = await concat(clips, {
      output: file("never.mp4"),
      transition: { type: "crossfade", duration: overlap },
      tools,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedCapabilityError);
    expect((error as UnsupportedCapabilityError).capability).toBe("transitions");
    expect((error as Error).message).toContain(tools.ffmpeg.version);
  });

  it("places each clip one transition before the previous one ends", () => {
    expect(clipStarts(lengths, overlap)).toEqual({ starts: [0, 0.5, 1.5], total: expected });
  });
});

describe("transitions on a system ffmpeg >= 4.3 (xfade and the fallback)", async () => {
  const found = await systemBuild();
  const reason = !found
    ? "skipped: no ffmpeg/ffprobe on PATH (a fresh machine has only the bundled 4.1)"
    : !found.tools.capabilities.xfade
      ? `skipped: ${found.name} on PATH has no xfade (older than 4.3)`
      : found.name;
  const usable = Boolean(found?.tools.capabilities.xfade);

  it.skipIf(!usable)(`crossfade with xfade — ${reason}`, async () => {
    const { result, output } = await joinAndCheck(
      found?.tools as FfmpegTools,
      "xfade",
      "crossfade",
    );
    expect(result.method).toBe("xfade");
    await expectCrossfade(output);
  });

  it.skipIf(!usable)(`dip through black with xfade — ${reason}`, async () => {
    const { result, output } = await joinAndCheck(found?.tools as FfmpegTools, "xfade", "fade");
    expect(result.method).toBe("xfade");
    await expectDipToBlack(output, { black: false });
  });

  it.skipIf(!usable)(`crossfade with the fallback on the same binary — ${reason}`, async () => {
    const tools = withoutXfade(found?.tools as FfmpegTools);
    const { result, output } = await joinAndCheck(tools, "system-overlay", "crossfade");
    expect(result.method).toBe("overlay");
    await expectCrossfade(output);
  });
});
