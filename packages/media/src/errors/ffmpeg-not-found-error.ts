import { MediaError } from "./media-error.js";

/**
 * No usable ffmpeg or ffprobe binary was found (env, PATH, npm package).
 *
 * @example
 * catch (error) { if (FfmpegNotFoundError.isInstance(error)) console.error(error.tried); }
 */
export class FfmpegNotFoundError extends MediaError {
  /** Every candidate that was tried, with why it was rejected. */
  readonly tried: readonly string[];
  /** `ffmpeg` or `ffprobe`. */
  readonly binary: string;

  constructor(binary: string, tried: readonly string[], options: { cause?: unknown } = {}) {
    super(
      `No usable ${binary} found. Set ${binary.toUpperCase()}_PATH, install ${binary} on PATH, or install @${binary}-installer/${binary}. Tried: ${tried.join("; ")}`,
      {
        code: "ffmpeg_not_found",
        cause: options.cause,
        hint: "install ffmpeg, or set FFMPEG_PATH to its binary",
      },
    );
    this.binary = binary;
    this.tried = tried;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), binary: this.binary, tried: this.tried };
  }
}
