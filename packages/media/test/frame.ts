import { locateFfmpeg } from "../src/locate/locate-ffmpeg.js";
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
