import {
  type BinaryInfo,
  bundledBinaries,
  type FfmpegCapabilities,
  type FfmpegTools,
  locateFfmpeg,
} from "@reelsmith/media";

/** What `reelsmith doctor` found out about ffmpeg. */
export interface ToolsCheck {
  ffmpeg?: BinaryInfo;
  ffprobe?: BinaryInfo;
  capabilities?: FfmpegCapabilities;
  /** How transitions are blended with this ffmpeg; `none` when they cannot be. */
  transitions?: "xfade" | "fade + overlay" | "none";
  /** The font every text operation draws with. */
  font?: string;
  /** The npm-shipped pair, for comparison (used when nothing else is configured or on PATH). */
  bundled: { ffmpeg?: string; ffprobe?: string };
  /** Why ffmpeg could not be used at all. */
  error?: string;
}

/** Capabilities without which reelsmith cannot run its pipelines (and the simulator its clips). */
export const requiredCapabilities = ["libx264", "aac", "drawtext"] as const;
/** Capabilities only some operations need. */
export const optionalCapabilities = ["subtitles", "transitions"] as const;

function transitionsOf(tools: FfmpegTools): ToolsCheck["transitions"] {
  if (!tools.capabilities.transitions) return "none";
  return tools.capabilities.xfade ? "xfade" : "fade + overlay";
}

/**
 * Locate ffmpeg and ffprobe afresh (FFMPEG_PATH/FFPROBE_PATH, PATH, the npm packages) and
 * read their versions and capabilities.
 *
 * @example
 * const tools = await checkTools();
 * if (tools.error) console.error(tools.error);
 */
export async function checkTools(): Promise<ToolsCheck> {
  const bundled = bundledBinaries();
  try {
    const tools = await locateFfmpeg({ refresh: true });
    return {
      ffmpeg: tools.ffmpeg,
      ffprobe: tools.ffprobe,
      capabilities: tools.capabilities,
      transitions: transitionsOf(tools),
      font: tools.fontFile,
      bundled,
    };
  } catch (error) {
    return { bundled, error: (error as Error).message };
  }
}
