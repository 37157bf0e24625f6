import { UnsupportedCapabilityError } from "../errors/unsupported-capability-error.js";
import type { FfmpegCapabilities, FfmpegTools } from "./locate-ffmpeg.js";

const why: Record<keyof FfmpegCapabilities, string> = {
  libx264: "H.264 encoding needs libx264",
  aac: "AAC encoding needs the aac encoder",
  drawtext: "drawing text needs the drawtext filter (libfreetype)",
  subtitles: "burning subtitles needs the subtitles filter (libass)",
  xfade: "this needs the xfade filter, added in ffmpeg 4.3",
  transitions:
    "transition joins need the acrossfade filter and either xfade or fade + overlay + color",
};

/**
 * Throw {@link UnsupportedCapabilityError} (naming the ffmpeg version) unless the located
 * ffmpeg has every capability listed, before any work starts.
 *
 * @example
 * requireCapabilities(tools, ["libx264", "aac"]);
 */
export function requireCapabilities(
  tools: FfmpegTools,
  needed: readonly (keyof FfmpegCapabilities)[],
): void {
  for (const capability of needed) {
    if (!tools.capabilities[capability]) {
      throw new UnsupportedCapabilityError(capability, tools.ffmpeg.version, why[capability]);
    }
  }
}
