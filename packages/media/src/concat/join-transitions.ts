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
import {
  overlayVideoGraph,
  type Transition,
  type TransitionEngine,
  xfadeVideoGraph,
} from "./transition-graph.js";

/**
 * Join clips in one pass, normalising each clip inline: video blended with `xfade` or, on
 * binaries without it, with `fade` + `overlay` (same timing, same length); audio with
 * `acrossfade`. The output lasts the sum of the clips minus one transition per join.
 *
 * @example
 * await joinWithTransitions(tools, files, infos, temp, { target, mode: "contain", durations, engine: "overlay", transition: { type: "crossfade", duration: 0.5 } });
 */
export async function joinWithTransitions(
  tools: FfmpegTools,
  clips: readonly string[],
  infos: readonly MediaInfo[],
  output: string,
  options: {
    target: VideoTarget;
    mode: FitMode;
    durations: readonly number[];
    transition: Transition;
    engine: TransitionEngine;
    signal?: AbortSignal | undefined;
    stallTimeoutMs?: number | undefined;
    /** Lossless and fast: only another ffmpeg pass reads the output. */
    intermediate?: boolean | undefined;
    onCommand?: CommandListener | undefined;
    onProgressLine?: ((line: string) => void) | undefined;
  },
): Promise<void> {
  const { duration: overlap } = options.transition;
  // Each clip is opened twice, picture only and sound only: with one input per clip, ffmpeg
  // 4.1 reads later clips far ahead for acrossfade's sake and queues their decoded frames
  // (821 MB against 167 MB for 12 480p clips; bench/transition-bench.mjs).
  const inputs: string[] = [];
  const graph: string[] = [];
  clips.forEach((clip, index) => {
    const file = path.resolve(clip);
    const seconds = options.durations[index] ?? 0;
    const info = infos[index];
    const video = inputs.filter((arg) => arg === "-i").length;
    inputs.push("-an", "-i", file);
    graph.push(
      `[${video}:v:0]${videoNormalizeChain(options.target, options.mode, info?.sar)},trim=duration=${seconds},setpts=PTS-STARTPTS,settb=AVTB[v${index}]`,
    );
    if (info?.hasAudio) {
      inputs.push("-vn", "-i", file);
      graph.push(
        `[${video + 1}:a:0]${audioNormalizeChain},apad,atrim=duration=${seconds},asetpts=PTS-STARTPTS[a${index}]`,
      );
    } else {
      graph.push(
        `anullsrc=r=48000:cl=stereo,atrim=duration=${seconds},${audioNormalizeChain}[a${index}]`,
      );
    }
  });
  const videoInput = {
    durations: options.durations,
    transition: options.transition,
    ...options.target,
  };
  graph.push(
    ...(options.engine === "xfade" ? xfadeVideoGraph(videoInput) : overlayVideoGraph(videoInput)),
  );
  let audioLabel = "a0";
  for (let index = 1; index < clips.length; index++) {
    const next = `ax${index}`;
    graph.push(`[${audioLabel}][a${index}]acrossfade=d=${overlap}[${next}]`);
    audioLabel = next;
  }
  await runFfmpeg(
    tools,
    [
      ...inputs,
      "-filter_complex",
      graph.join(";"),
      "-map",
      "[vout]",
      "-map",
      `[${audioLabel}]`,
      ...normalizedEncoderArgsFor(options.intermediate),
      "-movflags",
      "+faststart",
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
