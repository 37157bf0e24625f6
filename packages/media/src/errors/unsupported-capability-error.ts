import { MediaError } from "./media-error.js";

/**
 * The ffmpeg binary in use lacks a feature the operation needs (e.g. `xfade`, added in ffmpeg 4.3).
 *
 * @example
 * catch (error) { if (UnsupportedCapabilityError.isInstance(error)) console.error(error.capability, error.version); }
 */
export class UnsupportedCapabilityError extends MediaError {
  /** The missing capability, e.g. `xfade`. */
  readonly capability: string;
  /** Version string of the ffmpeg that lacks it. */
  readonly version: string;

  constructor(capability: string, version: string, detail?: string) {
    super(
      `ffmpeg ${version} does not support ${capability}${detail ? ` (${detail})` : ""}. Install a newer ffmpeg (Debian's ffmpeg 5.1 has it) or set FFMPEG_PATH.`,
      { code: "unsupported_capability" },
    );
    this.capability = capability;
    this.version = version;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), capability: this.capability, version: this.version };
  }
}
