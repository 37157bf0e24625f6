import { MediaVerificationError } from "../errors/media-verification-error.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import { probe } from "../probe/probe.js";

/**
 * Check that `file` is a picture of the expected size.
 *
 * @example
 * await verifyImage(tools, temp, { width: 640, height: 360 }, "poster.png");
 */
export async function verifyImage(
  tools: FfmpegTools,
  file: string,
  expected: { width?: number; height?: number },
  reportAs: string,
  signal?: AbortSignal,
): Promise<void> {
  const info = await probe(file, signal ? { tools, signal } : { tools });
  const problems: string[] = [];
  if (!info.hasVideo) problems.push("no picture");
  if (expected.width !== undefined && info.width !== expected.width)
    problems.push(`width ${info.width}, expected ${expected.width}`);
  if (expected.height !== undefined && info.height !== expected.height)
    problems.push(`height ${info.height}, expected ${expected.height}`);
  if (problems.length > 0) throw new MediaVerificationError(reportAs, problems);
}
