import path from "node:path";
import { MediaError } from "../errors/media-error.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { nominalRate } from "../probe/nominal-rate.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { render } from "../process/render.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { type ReframeMode, reframeFilter } from "./reframe-graph.js";
import { videoEncoderArgsFor } from "./video-encoder-args.js";

/** Options of {@link reframe}. */
export interface ReframeOptions extends MediaOptions {
  output: string;
  /** Output width in pixels (even). */
  width: number;
  /** Output height in pixels (even). */
  height: number;
  /** `crop` (default): fill and cut around the centre. `blur-pad`: the whole picture over a blurred fill. */
  mode?: ReframeMode;
  /** Blur strength of `blur-pad`'s background (Gaussian sigma in pixels; default 1/30 of the larger side). */
  blur?: number;
}

/**
 * The same film in another aspect ratio (e.g. a 16:9 final as 9:16): centre crop, or the
 * whole picture over a blurred, scaled-to-fill copy of itself. Length, frame rate and sound
 * are kept (the sound is copied).
 *
 * @example
 * await reframe("final-16x9.mp4", { output: "final-9x16.mp4", width: 1080, height: 1920, mode: "blur-pad" });
 */
export async function reframe(
  input: string,
  options: ReframeOptions,
): Promise<{ output: string; info: MediaInfo }> {
  for (const name of ["width", "height"] as const) {
    const value = options[name];
    if (!(Number.isInteger(value) && value > 0 && value % 2 === 0))
      throw new TypeError(
        `Expected \`${name}\` to be a positive even number of pixels; got ${value}`,
      );
  }
  const mode = options.mode ?? "crop";
  if (mode !== "crop" && mode !== "blur-pad")
    throw new TypeError(`Expected \`mode\` to be crop or blur-pad; got ${String(mode)}`);
  if (options.blur !== undefined && !(Number.isFinite(options.blur) && options.blur > 0))
    throw new TypeError(`Expected \`blur\` to be a positive number; got ${options.blur}`);
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["libx264"]);
  const source = path.resolve(input);
  const info = await probe(source, { tools, signal: options.signal });
  if (!info.hasVideo) {
    throw new MediaError(`${source} has no video stream to reframe`, { code: "invalid_input" });
  }
  const { width, height } = options;
  const graph = reframeFilter({
    width,
    height,
    mode,
    ...(options.blur === undefined ? {} : { blur: options.blur }),
  });
  const seconds = info.videoDuration ?? info.duration;
  const rate = nominalRate(info);
  return render(
    {
      tools,
      output: options.output,
      seconds,
      args: (temp) => [
        ...["-i", source, "-filter_complex", graph, "-map", "[v]", ...videoEncoderArgsFor(options)],
        ...(info.hasAudio ? ["-map", "0:a:0", "-c:a", "copy"] : []),
        ...["-movflags", "+faststart", temp],
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
