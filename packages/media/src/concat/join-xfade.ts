import path from "node:path";
import {
  audioNormalizeChain,
  type FitMode,
  normalizedEncoderArgs,
  type VideoTarget,
  videoNormalizeChain,
} from "../filters/normalize.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import type { MediaInfo } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";

/** A transition between consecutive clips. */
export interface Transition {
  /** `crossfade` blends the clips; `fade` dips through black. */
  type: "crossfade" | "fade";
  /** Seconds of overlap between two clips. */
  duration: number;
}

/**
 * Join clips in one pass with `xfade` (video) and `acrossfade` (audio), normalising each
 * clip inline. The output lasts the sum of the clips minus one transition per join.
 *
 * @example
 * await joinWithTransitions(tools, files, infos, temp, { target, mode: "contain", durations, transition: { type: "crossfade", duration: 0.5 } });
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
    signal?: AbortSignal | undefined;
    stallTimeoutMs?: number | undefined;
    onProgressLine?: ((line: string) => void) | undefined;
  },
): Promise<void> {
  const { duration: overlap } = options.transition;
  const kind = options.transition.type === "fade" ? "fadeblack" : "fade";
  const inputs: string[] = [];
  const graph: string[] = [];
  clips.forEach((clip, index) => {
    inputs.push("-i", path.resolve(clip));
    const seconds = options.durations[index] ?? 0;
    const info = infos[index];
    graph.push(
      `[${index}:v:0]${videoNormalizeChain(options.target, options.mode, info?.sar)},trim=duration=${seconds},setpts=PTS-STARTPTS,settb=AVTB[v${index}]`,
    );
    if (info?.hasAudio) {
      graph.push(
        `[${index}:a:0]${audioNormalizeChain},apad,atrim=duration=${seconds},asetpts=PTS-STARTPTS[a${index}]`,
      );
    } else {
      graph.push(
        `anullsrc=r=48000:cl=stereo,atrim=duration=${seconds},${audioNormalizeChain}[a${index}]`,
      );
    }
  });
  let videoLabel = "v0";
  let audioLabel = "a0";
  let offset = options.durations[0] ?? 0;
  for (let index = 1; index < clips.length; index++) {
    offset -= overlap;
    const nextVideo = `vx${index}`;
    const nextAudio = `ax${index}`;
    graph.push(
      `[${videoLabel}][v${index}]xfade=transition=${kind}:duration=${overlap}:offset=${offset.toFixed(6)}[${nextVideo}]`,
    );
    graph.push(`[${audioLabel}][a${index}]acrossfade=d=${overlap}[${nextAudio}]`);
    videoLabel = nextVideo;
    audioLabel = nextAudio;
    offset += options.durations[index] ?? 0;
  }
  await runFfmpeg(
    tools,
    [
      ...inputs,
      "-filter_complex",
      graph.join(";"),
      "-map",
      `[${videoLabel}]`,
      "-map",
      `[${audioLabel}]`,
      ...normalizedEncoderArgs,
      "-movflags",
      "+faststart",
      output,
    ],
    {
      signal: options.signal,
      onProgressLine: options.onProgressLine,
      stallTimeoutMs: options.stallTimeoutMs,
    },
  );
}
