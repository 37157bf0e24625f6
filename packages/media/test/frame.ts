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
