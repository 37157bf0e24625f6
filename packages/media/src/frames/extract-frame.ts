import { stat } from "node:fs/promises";
import path from "node:path";
import { FrameOutOfRangeError } from "../errors/frame-out-of-range-error.js";
import { MediaError } from "../errors/media-error.js";
import { MediaVerificationError } from "../errors/media-verification-error.js";
import type { MediaOptions } from "../options.js";
import { probe } from "../probe/probe.js";
import { createProgressTracker } from "../process/progress.js";
import { resolveTools, runFfmpeg } from "../process/run-ffmpeg.js";
import { withTempOutput } from "../process/temp-output.js";
import { pngSize } from "./png-size.js";

/** Options of {@link extractFrame}. */
export interface ExtractFrameOptions extends MediaOptions {
  /** Which frame: the first, the last decoded one, or the one on screen at that second. */
  at: "first" | "last" | number;
  /** Destination `.png` (lossless, at the clip's stored size). */
  output: string;
}

/** What {@link extractFrame} wrote. */
export interface ExtractedFrame {
  output: string;
  width: number;
  height: number;
}

/** Seconds decoded before the wanted frame; the window is reversed in memory. */
const window = 0.5;
/** A frame exactly at `at` counts as on screen at `at` despite rounding of timestamps. */
const epsilon = 0.0005;

/**
 * Save one frame of a clip as a PNG of the clip's size: `first`, `last` (the real last
 * decoded frame, whatever the container's duration says) or the frame on screen at a second
 * (the last frame whose timestamp is not after it). Made for continuity: the last frame of
 * scene N is the reference image of scene N+1.
 *
 * @example
 * await extractFrame("scene-1.mp4", { at: "last", output: "scene-1-last.png" });
 * await extractFrame("scene-1.mp4", { at: 1.5, output: "scene-1-at-1.5.png" });
 */
export async function extractFrame(
  input: string,
  options: ExtractFrameOptions,
): Promise<ExtractedFrame> {
  const at = options.at;
  if (at !== "first" && at !== "last" && typeof at !== "number") {
    throw new TypeError(
      `Expected \`at\` to be "first", "last" or a number of seconds; got ${JSON.stringify(at)}`,
    );
  }
  if (typeof at === "number" && Number.isNaN(at)) {
    throw new TypeError("Expected `at` to be a number of seconds; got NaN");
  }
  if (path.extname(options.output).toLowerCase() !== ".png") {
    throw new TypeError(
      `Expected \`output\` to be a .png file; got ${options.output} (use thumbnail() for JPEG or WebP)`,
    );
  }
  const tools = await resolveTools(options);
  const source = path.resolve(input);
  const info = await probe(source, { tools, signal: options.signal });
  if (!info.hasVideo) {
    throw new MediaError(`${source} has no video stream to take a frame from`, {
      code: "invalid_input",
    });
  }
  const duration = info.videoDuration ?? info.duration;
  if (typeof at === "number" && (at < 0 || at > duration + epsilon)) {
    throw new FrameOutOfRangeError(source, at, duration);
  }
  const destination = path.resolve(options.output);
  const progress = createProgressTracker(options.onProgress, 1);
  const run = (args: string[]) =>
    runFfmpeg(tools, args, {
      signal: options.signal,
      stallTimeoutMs: options.stallTimeoutMs,
      onCommand: options.onCommand,
    });
  const png = ["-an", "-sn", "-f", "image2", "-c:v", "png"];
  await withTempOutput(destination, async (temp) => {
    if (at === "first") {
      await run(["-i", source, "-map", "0:v:0", "-frames:v", 1, ...png, temp].map(String));
    } else {
      // Timestamps stay the file's own (-copyts), so the cut is at the video's start + `at`.
      const until = at === "last" ? undefined : info.videoStart + at + epsilon;
      const cut = until === undefined ? [] : [`trim=end=${until.toFixed(6)}`];
      const seek = Math.max(0, (at === "last" ? duration : at) - window);
      // Decode the last half second before the frame, reverse it, keep the first: exact
      // whatever the frame rate, and never a seek past the end that yields nothing.
      await run([
        ...["-copyts", "-ss", seek.toFixed(6), "-i", source, "-map", "0:v:0"],
        ...["-vf", [...cut, "reverse"].join(","), "-frames:v", "1", ...png, temp],
      ]);
      if (!(await nonEmpty(temp))) {
        // The metadata promised frames the window did not have (a stream shorter than its
        // stated duration, frames far apart): decode from the start and keep the last one.
        await run([
          ...["-copyts", "-i", source, "-map", "0:v:0"],
          ...(cut.length > 0 ? ["-vf", cut.join(",")] : []),
          ...["-update", "1", ...png, temp],
        ]);
      }
    }
    const size = (await nonEmpty(temp)) ? await pngSize(temp) : undefined;
    const problems: string[] = [];
    if (!size) problems.push("no PNG was written (ffmpeg decoded no frame there)");
    else if (size.width !== info.width || size.height !== info.height)
      problems.push(
        `${size.width}x${size.height}, expected the clip's ${info.width}x${info.height}`,
      );
    if (problems.length > 0) throw new MediaVerificationError(destination, problems);
  });
  progress.done();
  return { output: destination, width: info.width, height: info.height };
}

async function nonEmpty(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}
