import { MediaError } from "./media-error.js";

/**
 * The operation was cancelled through its AbortSignal; the ffmpeg process was killed and
 * no file was left at the destination.
 *
 * @example
 * catch (error) { if (error instanceof MediaAbortError) console.log("cancelled"); }
 */
export class MediaAbortError extends MediaError {
  constructor(options: { cause?: unknown } = {}) {
    super("The media operation was aborted", { code: "media_aborted", cause: options.cause });
  }
}
