import path from "node:path";
import { parseSize } from "../filters/escape.js";
import { type FitMode, videoNormalizeChain } from "../filters/normalize.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { nominalRate } from "../probe/nominal-rate.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { render } from "../process/render.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { videoEncoderArgsFor } from "./video-encoder-args.js";

/** Options of {@link fit}. */
export interface FitOptions extends MediaOptions {
  output: string;
  /** Target `WIDTHxHEIGHT`. */
  size: string;
  /** `contain` (default) letterboxes; `cover` fills the frame and crops the overflow. */
  mode?: FitMode;
}

/**
 * Bring a clip to an exact size keeping its aspect: pad (`contain`) or crop (`cover`).
 * Audio is copied unchanged.
 *
 * @example
 * await fit("landscape.mp4", { output: "vertical.mp4", size: "720x1280", mode: "cover" });
 */
export async function fit(
  input: string,
  options: FitOptions,
): Promise<{ output: string; info: MediaInfo }> {
  const { width, height } = parseSize(options.size);
  const mode = options.mode ?? "contain";
  if (mode !== "contain" && mode !== "cover")
    throw new TypeError(`Expected \`mode\` to be contain or cover; got ${String(mode)}`);
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["libx264"]);
  const source = path.resolve(input);
  const info = await probe(source, { tools, signal: options.signal });
  const seconds = info.videoDuration ?? info.duration;
  const rate = nominalRate(info);
  return render(
    {
      tools,
      output: options.output,
      seconds,
      args: (temp) => [
        "-i",
        source,
        "-map",
        "0:v:0",
        ...(info.hasAudio ? ["-map", "0:a:0", "-c:a", "copy"] : []),
        "-vf",
        videoNormalizeChain({ width, height, rate }, mode, info.sar),
        ...videoEncoderArgsFor(options),
        "-movflags",
        "+faststart",
        temp,
      ],
      expect: {
        duration: info.duration,
        tolerance: 0.1,
        width,
        height,
        audio: info.hasAudio,
        rate,
      },
    },
    options,
  );
}
