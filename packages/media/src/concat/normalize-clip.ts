import path from "node:path";
import {
  audioNormalizeChain,
  type FitMode,
  normalizedEncoderArgsFor,
  type VideoTarget,
  videoNormalizeChain,
} from "../filters/normalize.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import type { CommandListener } from "../options.js";
import type { MediaInfo } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";

/**
 * Re-encode one clip to `target` (size, rate, yuv420p, H.264, AAC 48 kHz stereo) with a
 * silent track from `anullsrc` when the clip has no audio, cut to `seconds` so every
 * normalised clip's streams have the same length and the clips join by copy.
 *
 * @example
 * await normalizeClip(tools, "in.mp4", info, "/tmp/n0.mp4", { target, mode: "contain", seconds: 4 });
 */
export async function normalizeClip(
  tools: FfmpegTools,
  input: string,
  info: MediaInfo,
  output: string,
  options: {
    target: VideoTarget;
    mode: FitMode;
    seconds: number;
    signal?: AbortSignal | undefined;
    stallTimeoutMs?: number | undefined;
    /** Lossless and fast: only another ffmpeg pass reads the output. */
    intermediate?: boolean | undefined;
    onCommand?: CommandListener | undefined;
    onProgressLine?: ((line: string) => void) | undefined;
  },
): Promise<void> {
  const seconds = String(options.seconds);
  const inputs = ["-i", path.resolve(input)];
  const video = `[0:v:0]${videoNormalizeChain(options.target, options.mode, info.sar)}[v]`;
  let audio: string;
  if (info.hasAudio) {
    audio = `[0:a:0]${audioNormalizeChain},apad[a]`;
  } else {
    inputs.push("-f", "lavfi", "-t", seconds, "-i", "anullsrc=r=48000:cl=stereo");
    audio = `[1:a]${audioNormalizeChain}[a]`;
  }
  await runFfmpeg(
    tools,
    [
      ...inputs,
      "-filter_complex",
      `${video};${audio}`,
      "-map",
      "[v]",
      "-map",
      "[a]",
      ...normalizedEncoderArgsFor(options.intermediate),
      "-t",
      seconds,
      output,
    ],
    {
      signal: options.signal,
      onProgressLine: options.onProgressLine,
      stallTimeoutMs: options.stallTimeoutMs,
      onCommand: options.onCommand,
    },
  );
}
