import { MediaError } from "./media-error.js";

/**
 * The operation was cancelled through its AbortSignal; the ffmpeg process was killed and
 * no file was left at the destination.
 *
 * @example
 * catch (error) { if (MediaAbortError.isInstance(error)) console.log("cancelled"); }
 */
export class MediaAbortError extends MediaError {
  constructor(options: { cause?: unknown } = {}) {
    super("The media operation was aborted", {
      code: "media_aborted",
      category: "interrupted",
      cause: options.cause,
    });
  }
}
