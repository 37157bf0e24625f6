import { stat } from "node:fs/promises";
import path from "node:path";
import { MediaError } from "../errors/media-error.js";
import type { FitMode } from "../filters/normalize.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { indexKnownProbes, type KnownProbe, probeUnlessIndexed } from "../probe/known-probe.js";
import { parseRate } from "../probe/parse-rate.js";
import type { MediaInfo } from "../probe/probe.js";
import { createProgressTracker, type ProgressTracker } from "../process/progress.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { withScratchDirectory, withTempOutput } from "../process/temp-output.js";
import { mapLimit } from "../util/map-limit.js";
import { type ConcatPlan, type JoinMethod, planConcat } from "./concat-plan.js";
import { joinByCopy } from "./join-copy.js";
import { joinWithTransitions } from "./join-transitions.js";
import { normalizeClip } from "./normalize-clip.js";
import type { Transition } from "./transition-graph.js";
import { verifyOutput } from "./verify-output.js";

/** Options of {@link concat}. */
export interface ConcatOptions extends MediaOptions {
  /** Destination file (MP4). */
  output: string;
  /** Target `WIDTHxHEIGHT`; default the first clip's size. */
  size?: string;
  /** Target frame rate; default the highest among the clips. */
  fps?: number;
  /** How clips of another shape fill the frame (default `contain`: letterbox). */
  fit?: FitMode;
  /**
   * Blend consecutive clips: with `xfade` where ffmpeg has it (>= 4.3), else with `fade` +
   * `overlay` (same timing and length).
   */
  transition?: Transition;
  /**
   * Probes made earlier (e.g. when the clips were downloaded): a clip whose path, size and
   * modification time match one is not probed again.
   */
  probes?: readonly KnownProbe[];
  /**
   * Told how the clips will be joined once they are probed, before the join's pass starts:
   * to make what goes with the joined picture meanwhile (its sound, say).
   */
  onPlan?: (plan: ConcatPlanned) => void;
}

/** What {@link ConcatOptions.onPlan} is told. */
export interface ConcatPlanned {
  method: JoinMethod;
  /**
   * The length the joined picture is planned to have, to the frame at the output's rate, as
   * a probe gives it (six decimals). The output's own probe (`info`) is the truth.
   */
  seconds?: number;
  /** The output's frame rate, e.g. `24` or `30000/1001`. */
  rate: string;
}

/** What {@link concat} did. */
export interface ConcatResult {
  output: string;
  info: MediaInfo;
  /**
   * `copy`: stream copy, no re-encode; `normalize`: clips re-encoded to one format first;
   * `xfade` / `overlay`: one-pass transition join blended with that filter.
   */
  method: JoinMethod;
  /** Why stream copy was not possible (empty for `copy`). */
  reasons: string[];
  /** The output's verified probe with its identity (pass it on instead of probing again). */
  probe: KnownProbe;
}

/**
 * Join clips into one MP4. Identical clips are joined by stream copy; mixed clips are
 * normalised (size, SAR, constant fps, yuv420p, H.264, AAC 48 kHz stereo, silence for
 * clips without audio) and then joined by copy. The output is verified (streams, size,
 * rate, summed duration within 0.1 s a clip) before it is moved to `output`.
 *
 * @example
 * const { method, info } = await concat(["a.mp4", "b.mp4"], { output: "final.mp4", onProgress: (p) => console.log(p.percent) });
 */
export async function concat(
  clips: readonly string[],
  options: ConcatOptions,
): Promise<ConcatResult> {
  if (!Array.isArray(clips) || clips.length === 0) {
    throw new TypeError("Expected `clips` to be a non-empty array of file paths");
  }
  const transition = options.transition;
  if (transition && !(Number.isFinite(transition.duration) && transition.duration > 0)) {
    throw new TypeError(
      `Expected \`transition.duration\` to be a positive number of seconds; got ${transition.duration}`,
    );
  }
  const tools = await resolveTools(options);
  if (transition && clips.length > 1) requireCapabilities(tools, ["transitions"]);
  const files = clips.map((clip) => path.resolve(clip));
  const probes = indexKnownProbes(options.probes);
  const infos = await mapLimit(files, 4, (file) =>
    probeUnlessIndexed(file, probes, { tools, signal: options.signal }),
  );
  infos.forEach((info, index) => {
    if (!info.hasVideo)
      throw new MediaError(`Clip ${index + 1} (${files[index]}) has no video stream`, {
        code: "invalid_input",
      });
  });
  const plan = planConcat(infos, {
    ...(options.size ? { size: options.size } : {}),
    ...(options.fps !== undefined ? { fps: options.fps } : {}),
    ...(options.fit ? { fit: options.fit } : {}),
    ...(transition && files.length > 1
      ? { transition, transitionEngine: tools.capabilities.xfade ? "xfade" : "overlay" }
      : {}),
  });
  if (transition && files.length > 1) {
    const shortest = Math.min(...plan.durations);
    if (transition.duration >= shortest) {
      throw new TypeError(
        `Expected \`transition.duration\` (${transition.duration}s) to be shorter than the shortest clip (${shortest}s)`,
      );
    }
  }
  if (plan.method !== "copy") requireCapabilities(tools, ["libx264", "aac"]);
  const planned = plannedSeconds(plan);
  options.onPlan?.({
    method: plan.method,
    ...(planned === undefined ? {} : { seconds: planned }),
    rate: plan.target.rate,
  });
  const destination = path.resolve(options.output);
  const progress = createProgressTracker(options.onProgress, plan.expectedDuration);
  const signal = options.signal;
  const stallTimeoutMs = options.stallTimeoutMs;
  const { intermediate, onCommand } = options;

  const info = await withTempOutput(destination, (temp) =>
    withScratchDirectory(destination, async (scratch) => {
      if ((plan.method === "xfade" || plan.method === "overlay") && transition) {
        await joinWithTransitions(tools, files, infos, temp, {
          ...plan,
          transition,
          engine: plan.method,
          intermediate,
          signal,
          stallTimeoutMs,
          onCommand,
          onProgressLine: progress.window(0, plan.expectedDuration),
        });
      } else if (plan.method === "copy") {
        await joinByCopy(tools, files, temp, {
          scratch,
          durations: plan.durations,
          starts: infos.map((info) => info.videoStart),
          signal,
          stallTimeoutMs,
          onCommand,
          onProgressLine: progress.window(0, plan.expectedDuration),
        });
      } else {
        await joinNormalized(tools, files, infos, temp, {
          plan,
          scratch,
          signal,
          stallTimeoutMs,
          intermediate,
          onCommand,
          progress,
        });
      }
      return verifyOutput(
        tools,
        temp,
        {
          duration: plan.expectedDuration,
          tolerance: 0.1 * files.length,
          width: plan.target.width,
          height: plan.target.height,
          rate: plan.target.rate,
        },
        destination,
        signal,
      );
    }),
  );
  progress.done();
  // The rename kept the verified bytes and their modification time.
  const written = await stat(destination);
  const probe = { file: destination, size: written.size, mtimeMs: written.mtimeMs, info };
  return { output: destination, info, method: plan.method, reasons: plan.reasons, probe };
}

/**
 * Each clip re-encoded to the plan's format, then joined by copy. Each is made of whole frames
 * of the output's rate (`clipFrames`) and the copy join told those lengths: a length between
 * two frames would start the next clip off the frame grid.
 */
async function joinNormalized(
  tools: FfmpegTools,
  files: readonly string[],
  infos: readonly MediaInfo[],
  temp: string,
  options: Pick<ConcatOptions, "signal" | "stallTimeoutMs" | "intermediate" | "onCommand"> & {
    plan: ConcatPlan;
    scratch: string;
    progress: ProgressTracker;
  },
): Promise<void> {
  const { plan, scratch, progress, signal, stallTimeoutMs, intermediate, onCommand } = options;
  const rate = parseRate(plan.target.rate);
  if (!(rate > 0))
    throw new MediaError(`Cannot join clips at a frame rate of ${plan.target.rate}`, {
      code: "invalid_input",
    });
  const normalized: string[] = [];
  let offset = 0;
  const frames = clipFrames(plan, rate);
  const lengths = frames.map((count) => count / rate);
  for (const [index, file] of files.entries()) {
    const seconds = lengths[index] ?? 0;
    const target = path.join(scratch, `clip-${index}.mp4`);
    await normalizeClip(tools, file, infos[index] as MediaInfo, target, {
      target: plan.target,
      mode: plan.mode,
      frames: frames[index] ?? 0,
      signal,
      stallTimeoutMs,
      intermediate,
      onCommand,
      onProgressLine: progress.window(offset, seconds),
    });
    normalized.push(target);
    offset += seconds;
  }
  await joinByCopy(tools, normalized, temp, {
    scratch,
    durations: lengths,
    signal,
    stallTimeoutMs,
    onCommand,
  });
}

/**
 * Each clip's length in whole frames of the output's `rate`: the frames that start before its
 * end (those a cut there keeps), a thousandth of a frame over a whole number being that
 * number (a probed length is printed to six decimals).
 */
function clipFrames(plan: ConcatPlan, rate: number): number[] {
  return plan.durations.map((seconds) => Math.ceil(seconds * rate - 1e-3));
}

/**
 * How long the joined picture will be, to the frame: a copy join adds the clips' frames; a
 * normalising one the whole frames each clip is made of (`clipFrames`); a transition join
 * keeps the frames that start before its planned end (`trim`).
 */
function plannedSeconds(plan: ConcatPlan): number | undefined {
  const rate = parseRate(plan.target.rate);
  if (!(rate > 0)) return undefined;
  const sum = (frames: readonly number[]) => frames.reduce((total, each) => total + each, 0);
  // A probed length is a whole number of frames printed to six decimals: a thousandth of a
  // frame over a whole number is that number.
  const frames =
    plan.method === "copy"
      ? sum(plan.durations.map((duration) => Math.round(duration * rate)))
      : plan.method === "normalize"
        ? sum(clipFrames(plan, rate))
        : Math.ceil(plan.expectedDuration * rate - 1e-3);
  return Number((frames / rate).toFixed(6));
}
