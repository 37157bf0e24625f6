import { MediaVerificationError } from "../errors/media-verification-error.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import { type MediaInfo, parseRate, probe } from "../probe/index.js";

/** What an output must look like. */
export interface OutputExpectation {
  /** Expected duration in seconds. */
  duration: number;
  /** Allowed difference in seconds. */
  tolerance: number;
  width?: number;
  height?: number;
  /** The output must have a video stream (default true; false for a sound alone). */
  video?: boolean;
  /** Expected constant frame rate, e.g. `30` or `30000/1001`. */
  rate?: string;
  /** The output must have an audio track spanning the whole duration (default true). */
  audio?: boolean;
  /** The output must have at least this many audio tracks. */
  audioStreams?: number;
  /** The output must have a subtitle track. */
  subtitles?: boolean;
}

/**
 * Probe `file` and throw {@link MediaVerificationError} listing every mismatch with `expected`:
 * missing streams, wrong size or rate, container or stream duration off by more than the
 * tolerance (a copy join of mismatched clips exits 0 with a short audio track, for example).
 *
 * @example
 * await verifyOutput(tools, temp, { duration: 12, tolerance: 0.3, width: 1280, height: 720 }, destination);
 */
export async function verifyOutput(
  tools: FfmpegTools,
  file: string,
  expected: OutputExpectation,
  reportAs: string,
  signal?: AbortSignal,
): Promise<MediaInfo> {
  const info = await probe(file, signal ? { tools, signal } : { tools });
  const problems: string[] = [];
  const near = (value: number | null) =>
    value !== null && Math.abs(value - expected.duration) <= expected.tolerance;
  if (expected.video !== false && !info.hasVideo) problems.push("no video stream");
  if (!near(info.duration))
    problems.push(
      `duration ${info.duration.toFixed(3)}s, expected ${expected.duration.toFixed(3)}s ± ${expected.tolerance.toFixed(2)}s`,
    );
  if (info.videoDuration !== null && !near(info.videoDuration))
    problems.push(`video stream lasts ${info.videoDuration.toFixed(3)}s`);
  if (expected.audio !== false) {
    if (!info.hasAudio) problems.push("no audio stream");
    else if (info.audioDuration !== null && !near(info.audioDuration))
      problems.push(`audio stream lasts ${info.audioDuration.toFixed(3)}s`);
  }
  if (
    expected.width !== undefined &&
    (info.width !== expected.width || info.height !== expected.height)
  ) {
    problems.push(
      `size ${info.width}x${info.height}, expected ${expected.width}x${expected.height}`,
    );
  }
  if (
    expected.rate !== undefined &&
    Math.abs(parseRate(info.frameRate) - parseRate(expected.rate)) > 0.01
  ) {
    problems.push(`frame rate ${info.frameRate}, expected ${expected.rate}`);
  }
  if (problems.length > 0) throw new MediaVerificationError(reportAs, problems);
  return info;
}
