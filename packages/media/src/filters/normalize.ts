import {
  audioEncoderArgs,
  losslessVideoEncoderArgs,
  videoEncoderArgs,
} from "../edit/video-encoder-args.js";
/** How a picture is fitted into a frame of another shape. */
export type FitMode = "contain" | "cover";

/** A target picture format. */
export interface VideoTarget {
  width: number;
  height: number;
  /** Frame rate as ffmpeg accepts it: `30`, `24`, `30000/1001`. */
  rate: string;
}

/**
 * The video filter chain that brings any clip to `target`: square pixels first (honouring a
 * non-square SAR), then scale keeping aspect and pad (`contain`) or crop (`cover`), `setsar=1`,
 * constant frame rate, yuv420p.
 *
 * @example
 * videoNormalizeChain({ width: 1280, height: 720, rate: "30" }, "contain", "1:1");
 */
export function videoNormalizeChain(target: VideoTarget, mode: FitMode, sar = "1:1"): string {
  const { width, height, rate } = target;
  const filters: string[] = [];
  if (sar !== "1:1") filters.push("scale=trunc(iw*sar/2)*2:ih", "setsar=1");
  if (mode === "cover") {
    filters.push(
      `scale=${width}:${height}:force_original_aspect_ratio=increase`,
      `crop=${width}:${height}`,
    );
  } else {
    filters.push(
      `scale=${width}:${height}:force_original_aspect_ratio=decrease`,
      `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black`,
    );
  }
  filters.push("setsar=1", `fps=${rate}`, "format=yuv420p");
  return filters.join(",");
}

/** Audio chain to AAC-friendly 48 kHz stereo float planar. */
export const audioNormalizeChain =
  "aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo";

/** Encoder arguments every normalised clip shares, so normalised clips join by stream copy. */
export const normalizedEncoderArgs: readonly string[] = [
  ...videoEncoderArgs,
  "-profile:v",
  "high",
  ...audioEncoderArgs,
];

/**
 * The encoder arguments of normalised clips: {@link normalizedEncoderArgs}, or lossless and
 * fast when the output only feeds another ffmpeg pass (every clip of one join alike).
 */
export function normalizedEncoderArgsFor(intermediate: boolean | undefined): readonly string[] {
  return intermediate ? [...losslessVideoEncoderArgs, ...audioEncoderArgs] : normalizedEncoderArgs;
}
