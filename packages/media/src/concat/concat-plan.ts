import { parseSize } from "../filters/escape.js";
import type { FitMode, VideoTarget } from "../filters/normalize.js";
import { type MediaInfo, nominalRate, parseRate } from "../probe/index.js";
import type { TransitionEngine } from "./transition-graph.js";

/**
 * How clips will be joined: `copy` (stream copy), `normalize` (re-encoded to one format, then
 * copied), or a one-pass transition join blended with `xfade` or, without it, `overlay`.
 */
export type JoinMethod = "copy" | "normalize" | TransitionEngine;

/** The decision {@link planConcat} makes, with the reason when copy is not possible. */
export interface ConcatPlan {
  method: JoinMethod;
  target: VideoTarget;
  mode: FitMode;
  /** Why the clips cannot be joined by stream copy (empty for copy). */
  reasons: string[];
  /** Seconds each clip contributes before transitions. */
  durations: number[];
  /** Expected duration of the output. */
  expectedDuration: number;
}

/**
 * How far a clip's audio may end from its video and still be stream-copied: about two AAC
 * frames. Longer overhangs would overlap the next clip's audio, shorter tracks leave gaps
 * that MP4 cannot represent (later audio would play early).
 */
const audioSlack = 0.05;

const copyableVideo = new Set(["h264", "hevc"]);
const copyableAudio = new Set(["aac"]);

/**
 * Decide between a stream-copy join (every clip shares codec, size, rate, SAR, pixel format,
 * codec parameters and audio layout, and has audio) and normalising first.
 * Default target: the first clip's size and the highest frame rate among the clips.
 *
 * @example
 * const plan = planConcat(await Promise.all(files.map((f) => probe(f))), {});
 * plan.method; // "copy" or "normalize" ("xfade" or "overlay" with a transition)
 */
export function planConcat(
  infos: readonly MediaInfo[],
  options: {
    size?: string;
    fps?: number;
    fit?: FitMode;
    transition?: { duration: number };
    /** How a transition is blended (default `xfade`). */
    transitionEngine?: TransitionEngine;
  },
): ConcatPlan {
  const first = infos[0];
  if (!first) throw new TypeError("Expected `clips` to contain at least one file");
  const size = options.size
    ? parseSize(options.size)
    : { width: first.width, height: first.height };
  if (!options.size && (size.width % 2 !== 0 || size.height % 2 !== 0)) {
    size.width -= size.width % 2;
    size.height -= size.height % 2;
  }
  const rate =
    options.fps !== undefined
      ? String(options.fps)
      : infos
          .map(nominalRate)
          .reduce((best, rate) => (parseRate(rate) > parseRate(best) ? rate : best));
  const target: VideoTarget = { ...size, rate };
  const durations = infos.map((info) => info.videoDuration ?? info.duration);
  const total = durations.reduce((sum, seconds) => sum + seconds, 0);
  const mode = options.fit ?? "contain";

  if (options.transition) {
    const overlap = options.transition.duration * (infos.length - 1);
    return {
      method: options.transitionEngine ?? "xfade",
      target,
      mode,
      reasons: ["transition asked for"],
      durations,
      expectedDuration: total - overlap,
    };
  }

  const reasons: string[] = [];
  infos.forEach((info, index) => {
    const label = `clip ${index + 1}`;
    if (!info.hasVideo) reasons.push(`${label} has no video`);
    if (!info.hasAudio) reasons.push(`${label} has no audio`);
    if (!copyableVideo.has(info.videoCodec))
      reasons.push(`${label} video codec ${info.videoCodec} is not H.264/HEVC`);
    if (info.audioCodec && !copyableAudio.has(info.audioCodec))
      reasons.push(`${label} audio codec ${info.audioCodec} is not AAC`);
    if (info.width !== size.width || info.height !== size.height)
      reasons.push(`${label} is ${info.width}x${info.height}, target ${size.width}x${size.height}`);
    if (parseRate(info.frameRate) !== parseRate(rate))
      reasons.push(`${label} runs at ${info.frameRate} fps, target ${rate}`);
    const videoLength = info.videoDuration ?? info.duration;
    const audioLength = info.audioDuration ?? videoLength;
    if (info.hasAudio && Math.abs(audioLength - videoLength) > audioSlack) {
      reasons.push(
        `${label} audio lasts ${audioLength.toFixed(3)}s but video ${videoLength.toFixed(3)}s`,
      );
    }
    if (info.frameRate !== info.averageFrameRate)
      reasons.push(`${label} has a variable frame rate`);
    if (info.signature.video !== first.signature.video)
      reasons.push(`${label} video parameters differ from clip 1`);
    if (info.signature.audio !== first.signature.audio)
      reasons.push(`${label} audio parameters differ from clip 1`);
  });
  const unique = [...new Set(reasons)];
  return {
    method: unique.length === 0 ? "copy" : "normalize",
    target,
    mode,
    reasons: unique,
    durations,
    expectedDuration: total,
  };
}
