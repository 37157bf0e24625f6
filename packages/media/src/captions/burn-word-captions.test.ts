import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { decodeRgb } from "../../test/frame.js";
import { extractFrame } from "../frames/extract-frame.js";
import { type FfmpegTools, locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { probe } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";
import { burnWordCaptions } from "./burn-word-captions.js";
import type { WordTiming } from "./word-timing.js";

const work = useTempDirectory();
const file = (name: string) => path.join(work(), name);
const width = 640;
const height = 360;
/** The rows the social preset's one centred line is drawn in. */
const band = { y: 130, height: 100 };
let tools: FfmpegTools;
let clip: string;
const words: WordTiming[] = [
  { word: "Café", start: 0.2, end: 0.6 },
  { word: "déjà", start: 0.7, end: 1.1 },
  { word: "vu", start: 1.2, end: 1.6 },
  { word: "你好", start: 2.0, end: 2.4 },
  { word: "世界", start: 2.5, end: 2.9 },
];

beforeAll(async () => {
  tools = await locateFfmpeg();
  clip = file("dark.mp4");
  await runFfmpeg(tools, [
    ...["-f", "lavfi", "-i", `color=c=0x203040:size=${width}x${height}:rate=24:duration=3.5`],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=3.5"],
    ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip],
  ]);
});

/** Where pixels of a kind are in a band of a frame: how many, their mean and largest x. */
function spread(pixels: Buffer, kind: (red: number, green: number, blue: number) => boolean) {
  let count = 0;
  let sum = 0;
  let right = -1;
  for (let index = 0; index < pixels.length; index += 3) {
    if (!kind(pixels[index] ?? 0, pixels[index + 1] ?? 0, pixels[index + 2] ?? 0)) continue;
    const x = (index / 3) % width;
    count++;
    sum += x;
    right = Math.max(right, x);
  }
  return { count, meanX: count > 0 ? sum / count : Number.NaN, right };
}
const yellow = (red: number, green: number, blue: number) => red > 190 && green > 160 && blue < 90;
const white = (red: number, green: number, blue: number) => red > 200 && green > 200 && blue > 200;

/** The caption band of the frame on screen at `at`, grabbed with extractFrame as a PNG. */
async function bandAt(video: string, at: number): Promise<Buffer> {
  const png = file(`${path.basename(video)}-${at}.png`);
  await extractFrame(video, { at, output: png });
  return decodeRgb(tools, png, 0, file("band.rgb"), band);
}

describe("burnWordCaptions", () => {
  it("highlight: the word being spoken is drawn in the highlight colour, where it stands in its line", async () => {
    const { output, pages } = await burnWordCaptions(clip, {
      output: file("highlight.mp4"),
      words,
      mode: "highlight",
      preset: "social",
    });
    expect(pages).toHaveLength(2);
    const info = await probe(output);
    expect([info.width, info.height, info.hasAudio]).toEqual([width, height, true]);
    const at = async (seconds: number) => {
      const pixels = await bandAt(output, seconds);
      return { yellow: spread(pixels, yellow), white: spread(pixels, white) };
    };
    // Mid "Café" (first of its line): highlighted, left of the white words.
    const first = await at(0.4);
    expect(first.yellow.count).toBeGreaterThan(80);
    expect(first.yellow.meanX).toBeLessThan(first.white.meanX - 40);
    // Mid "vu" (last of its line): highlighted, right of the white words.
    const last = await at(1.4);
    expect(last.yellow.count).toBeGreaterThan(30);
    expect(last.yellow.meanX).toBeGreaterThan(last.white.meanX + 40);
    // Mid "世界", drawn by the bundled Chinese font: highlighted, right of "你好".
    const chinese = await at(2.7);
    expect(chinese.yellow.count).toBeGreaterThan(80);
    expect(chinese.white.count).toBeGreaterThan(80);
    expect(chinese.yellow.meanX).toBeGreaterThan(chinese.white.meanX + 20);
    // Between pages nothing is drawn, and before the first word neither.
    expect((await at(0.1)).white.count + (await at(0.1)).yellow.count).toBe(0);
  });

  it("pop: a word appears when spoken, the words after it are not drawn yet", async () => {
    const { output } = await burnWordCaptions(clip, {
      output: file("pop.mp4"),
      words,
      mode: "pop",
      preset: "social",
    });
    const early = spread(await bandAt(output, 0.4), white);
    const later = spread(await bandAt(output, 1.4), white);
    expect(early.count).toBeGreaterThan(80);
    expect(early.count).toBeLessThan(later.count * 0.6);
    expect(early.right).toBeLessThan(later.right - 60);
    expect(spread(await bandAt(output, 1.4), yellow).count).toBe(0);
  });
});
