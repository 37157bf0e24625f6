import path from "node:path";
import { MediaError } from "../errors/media-error.js";
import { extractFrame } from "../frames/extract-frame.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { nominalRate } from "../probe/nominal-rate.js";
import { parseRate } from "../probe/parse-rate.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { render } from "../process/render.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { withScratchDirectory } from "../process/temp-output.js";
import { fitDurationGraph } from "./fit-duration-graph.js";
import { audioEncoderArgs, requirePositive, videoEncoderArgsFor } from "./video-encoder-args.js";

/** How {@link fitClipToDuration} changes a clip's length. */
export type FitDurationMode = "auto" | "trim" | "hold";

/** Options of {@link fitClipToDuration}. */
export interface FitClipToDurationOptions extends MediaOptions {
  output: string;
  /** The length asked for, in seconds; the output has the nearest whole number of frames. */
  seconds: number;
  /**
   * `auto` (default): cut a longer clip, hold a shorter one's last frame. `trim`: only cut
   * (a shorter clip is refused). `hold`: only hold (a longer clip is refused).
   */
  mode?: FitDurationMode;
}

/** What {@link fitClipToDuration} did. */
export interface FitClipToDurationResult {
  output: string;
  info: MediaInfo;
  /** What was done to the clip: cut, held (its last frame shown longer) or left as long. */
  action: "trimmed" | "held" | "unchanged";
  /** Frames of the output (`seconds × rate`, rounded). */
  frames: number;
  /** The output's exact length: `frames / rate`. */
  seconds: number;
}

/**
 * Bring a clip to an exact length, to the frame: a longer clip is cut, a shorter one holds
 * its last frame (ffmpeg 4.1 has no `tpad`: the last frame is taken with
 * {@link extractFrame} and looped after the clip). Its sound is padded with silence or cut
 * to the same length; size and frame rate are kept.
 *
 * @example
 * // The scene's narration lasts 5.3 s; the clip is 4 s: its last frame is held 1.3 s.
 * await fitClipToDuration("scene-1.mp4", { output: "scene-1-fitted.mp4", seconds: 5.3 });
 */
export async function fitClipToDuration(
  input: string,
  options: FitClipToDurationOptions,
): Promise<FitClipToDurationResult> {
  requirePositive("seconds", options.seconds);
  const mode = options.mode ?? "auto";
  if (!["auto", "trim", "hold"].includes(mode))
    throw new TypeError(`Expected \`mode\` to be auto, trim or hold; got ${String(mode)}`);
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["libx264", "aac"]);
  const source = path.resolve(input);
  const info = await probe(source, { tools, signal: options.signal });
  if (!info.hasVideo) {
    throw new MediaError(`${source} has no video stream to fit to a length`, {
      code: "invalid_input",
    });
  }
  const rate = nominalRate(info);
  const fps = parseRate(rate);
  const frames = Math.max(1, Math.round(options.seconds * fps));
  const seconds = frames / fps;
  const sourceFrames = Math.round((info.videoDuration ?? info.duration) * fps);
  const action = frames > sourceFrames ? "held" : frames < sourceFrames ? "trimmed" : "unchanged";
  if ((mode === "trim" && action === "held") || (mode === "hold" && action === "trimmed")) {
    throw new MediaError(
      `${source} lasts ${sourceFrames} frames (${(sourceFrames / fps).toFixed(3)}s) and ${frames} are asked for: mode "${mode}" cannot ${mode === "trim" ? "lengthen" : "shorten"} it; use mode "auto"`,
      { code: "invalid_input" },
    );
  }
  const destination = path.resolve(options.output);
  const rendered = await withScratchDirectory(destination, async (scratch) => {
    const still = path.join(scratch, "last.png");
    const hold = action === "held";
    if (hold) {
      await extractFrame(source, {
        at: "last",
        output: still,
        tools,
        signal: options.signal,
        onCommand: options.onCommand,
      });
    }
    const graph = fitDurationGraph({
      frames,
      seconds,
      rate,
      width: info.width,
      height: info.height,
      sar: info.sar,
      hold,
      audio: info.hasAudio,
    });
    const stillInput = ["-loop", "1", "-framerate", rate, "-t", (seconds + 1).toFixed(3)];
    return render(
      {
        tools,
        output: destination,
        seconds,
        args: (temp) => [
          ...["-i", source, ...(hold ? [...stillInput, "-i", still] : [])],
          ...["-filter_complex", graph, "-map", "[v]", ...videoEncoderArgsFor(options), "-r", rate],
          ...(info.hasAudio ? ["-map", "[a]", ...audioEncoderArgs] : []),
          ...["-movflags", "+faststart", temp],
        ],
        expect: {
          duration: seconds,
          tolerance: 0.05 + 1 / fps,
          width: info.width,
          height: info.height,
          audio: info.hasAudio,
          rate,
        },
      },
      options,
    );
  });
  return { ...rendered, action, frames, seconds };
}
