import { type ErrorCategory, ReelsmithError } from "@reelsmith/core/errors";

/**
 * Base class of every error thrown by `@reelsmith/media`, a `ReelsmithError` like every
 * reelsmith error. Each subclass has a stable `code`, a category (`invalid` for an input
 * refused before ffmpeg runs, `interrupted` for a cancelled operation, else `failed`) and is
 * recognised with its static `isInstance` (a `Symbol.for("reelsmith.error.<Name>")` marker per
 * class, so the check holds across two installed copies of the package).
 *
 * @example
 * try { await concat(files, { output: "out.mp4" }); }
 * catch (error) { if (MediaError.isInstance(error)) console.error(error.code, error.message); }
 */
export class MediaError extends ReelsmithError {
  constructor(
    message: string,
    options: { code?: string; cause?: unknown; category?: ErrorCategory; hint?: string } = {},
  ) {
    super(message, { ...options, code: options.code ?? "media_error" });
  }

  /** A plain object that survives `JSON.stringify` (for journals and events). */
  override toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, category: this.category };
  }
}
