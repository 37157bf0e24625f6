import { readFile } from "node:fs/promises";
import { type FfmpegTools, locateFfmpeg } from "../src/locate/locate-ffmpeg.js";
import { runFfmpeg } from "../src/process/run-ffmpeg.js";

/**
 * Write one frame of `video` to `image` with plain ffmpeg (to make test pictures without
 * checking binary fixtures in).
 *
 * @example
 * await extractFrame("clip.mp4", "frame.png");
 */
export async function extractFrame(video: string, image: string): Promise<void> {
  const tools = await locateFfmpeg();
  await runFfmpeg(tools, ["-i", video, "-frames:v", "1", "-f", "image2", "-update", "1", image]);
}

/**
 * Copy `video` to `output` without its audio track (a silent clip for tests).
 *
 * @example
 * await withoutAudio("clip.mp4", "silent.mp4");
 */
export async function withoutAudio(video: string, output: string): Promise<void> {
  const tools = await locateFfmpeg();
  await runFfmpeg(tools, ["-i", video, "-map", "0:v", "-c", "copy", output]);
}

/**
 * The mean RGB colour of the top-left 16×16 pixels of the first frame at or after `at`
 * seconds (a tiny ffmpeg extraction to raw RGB).
 *
 * @example
 * const [r, g, b] = await cornerColour(tools, "joined.mp4", 0.75, "/tmp/pixel.rgb");
 */
export async function cornerColour(
  tools: FfmpegTools,
  video: string,
  at: number,
  scratch: string,
): Promise<[number, number, number]> {
  await runFfmpeg(tools, [
    "-ss",
    at.toFixed(4),
    "-i",
    video,
    "-frames:v",
    "1",
    "-vf",
    "crop=16:16:0:0,scale=1:1:flags=area",
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgb24",
    scratch,
  ]);
  const bytes = await readFile(scratch);
  if (bytes.length !== 3) throw new Error(`Expected 3 bytes of RGB; got ${bytes.length}`);
  return [bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0];
}

/**
 * Every frame of `video` as raw RGB (`rgb24`, the video's own size), decoded in order by
 * plain ffmpeg: the reference a frame taken another way must equal.
 *
 * @example
 * const frames = await decodeAllFrames(tools, "clip.mp4", 64, 36, "/tmp/all.rgb");
 */
export async function decodeAllFrames(
  tools: FfmpegTools,
  video: string,
  width: number,
  height: number,
  scratch: string,
): Promise<Buffer[]> {
  await runFfmpeg(tools, [
    "-i",
    video,
    "-map",
    "0:v:0",
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgb24",
    scratch,
  ]);
  const bytes = await readFile(scratch);
  const size = width * height * 3;
  if (bytes.length % size !== 0)
    throw new Error(`${bytes.length} bytes is not a whole number of ${width}x${height} frames`);
  const frames: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    frames.push(bytes.subarray(offset, offset + size));
  return frames;
}

/**
 * The picture at `at` seconds of `video` (or of an image) as raw RGB, optionally cropped to
 * a band `{ y, height }` of rows.
 *
 * @example
 * const bottom = await decodeRgb(tools, "captioned.mp4", 1.2, "/tmp/b.rgb", { y: 140, height: 40 });
 */
export async function decodeRgb(
  tools: FfmpegTools,
  video: string,
  at: number,
  scratch: string,
  band?: { y: number; height: number },
): Promise<Buffer> {
  await runFfmpeg(tools, [
    ...(at > 0 ? ["-ss", at.toFixed(4)] : []),
    "-i",
    video,
    "-frames:v",
    "1",
    ...(band ? ["-vf", `crop=iw:${band.height}:0:${band.y}`] : []),
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgb24",
    scratch,
  ]);
  return readFile(scratch);
}

/**
 * Mean absolute difference of two equally long byte buffers (0 = identical, 255 = opposite).
 *
 * @example
 * expect(meanDifference(clean, captioned)).toBeGreaterThan(2);
 */
export function meanDifference(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) throw new Error(`Cannot compare ${a.length} bytes with ${b.length}`);
  let total = 0;
  for (let index = 0; index < a.length; index++)
    total += Math.abs((a[index] ?? 0) - (b[index] ?? 0));
  return a.length === 0 ? 0 : total / a.length;
}
