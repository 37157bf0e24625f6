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
import { parseRate } from "../probe/parse-rate.js";
import type { MediaInfo } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";

/**
 * Re-encode one clip to `target` (size, rate, yuv420p, H.264, AAC 48 kHz stereo) with a
 * silent track from `anullsrc` when the clip has no audio, made exactly `frames` frames of
 * the target's rate long (its sound as long), so every normalised clip's streams have the
 * same length and the clips join by copy. The `fps` filter places a clip's last frame by
 * its start, so a clip whose length falls between frames of the target's rate can come out
 * a frame short: its last frame is held (`tpad`) and the picture cut at `frames`.
 *
 * @example
 * await normalizeClip(tools, "in.mp4", info, "/tmp/n0.mp4", { target, mode: "contain", frames: 96 });
 */
export async function normalizeClip(
  tools: FfmpegTools,
  input: string,
  info: MediaInfo,
  output: string,
  options: {
    target: VideoTarget;
    mode: FitMode;
    /** Whole frames of `target.rate` the clip is made of. */
    frames: number;
    signal?: AbortSignal | undefined;
    stallTimeoutMs?: number | undefined;
    /** Lossless and fast: only another ffmpeg pass reads the output. */
    intermediate?: boolean | undefined;
    onCommand?: CommandListener | undefined;
    onProgressLine?: ((line: string) => void) | undefined;
  },
): Promise<void> {
  const { frames, target } = options;
  const seconds = String(frames / parseRate(target.rate));
  const inputs = ["-i", path.resolve(input)];
  const chain = videoNormalizeChain(target, options.mode, info.sar);
  const video = `[0:v:0]${chain},tpad=stop_mode=clone:stop=-1[v]`;
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
      "-frames:v",
      String(frames),
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
