import path from "node:path";
import { requirePositive } from "../edit/video-encoder-args.js";
import type { MediaOptions } from "../options.js";
import { probe } from "../probe/probe.js";
import { createProgressTracker } from "../process/progress.js";
import { resolveTools, runFfmpeg } from "../process/run-ffmpeg.js";
import { withTempOutput } from "../process/temp-output.js";
import { imageOutputArgs } from "./image-output.js";
import { verifyImage } from "./verify-image.js";

/** Options of {@link thumbnail}. */
export interface ThumbnailOptions extends MediaOptions {
  /** Image file: .png, .jpg, .jpeg, .webp or .bmp. */
  output: string;
  /** Second to take the frame from (default: the middle; clamped to the last frame). */
  at?: number;
  /** Width in pixels (height follows the aspect); default the clip's width. */
  width?: number;
}

/**
 * Save one frame of a clip as a picture (a poster).
 *
 * @example
 * await thumbnail("final.mp4", { output: "poster.jpg", at: 2, width: 640 });
 */
export async function thumbnail(
  input: string,
  options: ThumbnailOptions,
): Promise<{ output: string }> {
  const at = requirePositive("at", options.at, true);
  const width = requirePositive("width", options.width);
  const outputArgs = imageOutputArgs(options.output);
  const tools = await resolveTools(options);
  const source = path.resolve(input);
  const info = await probe(source, { tools, signal: options.signal });
  const frame = info.fps > 0 ? 1 / info.fps : 0.04;
  const time = Math.max(
    0,
    Math.min(at ?? info.duration / 2, (info.videoDuration ?? info.duration) - frame),
  );
  const targetWidth = width === undefined ? info.width : Math.round(width / 2) * 2;
  const targetHeight = Math.round((targetWidth * info.height) / info.width / 2) * 2;
  const destination = path.resolve(options.output);
  const progress = createProgressTracker(options.onProgress, 1);
  await withTempOutput(destination, async (temp) => {
    await runFfmpeg(
      tools,
      [
        "-ss",
        time.toFixed(6),
        "-i",
        source,
        "-map",
        "0:v:0",
        "-vf",
        `scale=${targetWidth}:${targetHeight},setsar=1`,
        ...outputArgs,
        temp,
      ],
      {
        signal: options.signal,
        stallTimeoutMs: options.stallTimeoutMs,
        onCommand: options.onCommand,
      },
    );
    await verifyImage(
      tools,
      temp,
      { width: targetWidth, height: targetHeight },
      destination,
      options.signal,
    );
  });
  progress.done();
  return { output: destination };
}
