import path from "node:path";
import { type OutputExpectation, verifyOutput } from "../concat/verify-output.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import type { MediaOptions } from "../options.js";
import type { MediaInfo } from "../probe/probe.js";
import { createProgressTracker } from "./progress.js";
import { type RunFfmpegOptions, runFfmpeg } from "./run-ffmpeg.js";
import { withTempOutput } from "./temp-output.js";

/** One single-output ffmpeg job. */
export interface RenderJob {
  tools: FfmpegTools;
  /** The destination; ffmpeg writes to a temp file beside it. */
  output: string;
  /** Builds the argument vector (inputs, filters, codecs) ending with the temp output path. */
  args: (tempOutput: string) => string[];
  /** Seconds of output, for progress. */
  seconds: number;
  /** What the output must look like; checked before the rename. */
  expect: OutputExpectation;
  /** ffmpeg's log level (default `error`); see {@link RunFfmpegOptions.logLevel}. */
  logLevel?: RunFfmpegOptions["logLevel"];
  /** Receives ffmpeg's stderr once it has finished (e.g. a filter's measurements). */
  onLog?: (stderr: string) => void;
}

/**
 * Run one ffmpeg job to a temp file, report progress against `seconds`, verify the result,
 * and rename it onto the destination.
 *
 * @example
 * const info = await render({ tools, output, seconds: 2, args: (t) => ["-i", input, "-t", "2", t], expect: { duration: 2, tolerance: 0.1 } }, options);
 */
export async function render(
  job: RenderJob,
  options: MediaOptions,
): Promise<{ output: string; info: MediaInfo }> {
  const destination = path.resolve(job.output);
  const progress = createProgressTracker(options.onProgress, job.seconds);
  const info = await withTempOutput(destination, async (temp) => {
    const { stderr } = await runFfmpeg(job.tools, job.args(temp), {
      signal: options.signal,
      stallTimeoutMs: options.stallTimeoutMs,
      onCommand: options.onCommand,
      onProgressLine: progress.window(0, job.seconds),
      ...(job.logLevel ? { logLevel: job.logLevel } : {}),
    });
    job.onLog?.(stderr);
    return verifyOutput(job.tools, temp, job.expect, destination, options.signal);
  });
  progress.done();
  return { output: destination, info };
}
