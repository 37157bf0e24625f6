const marker = Symbol.for("reelsmith.media.error");

/**
 * Base class of every error thrown by `@reelsmith/media`. Each subclass has a stable `code`.
 *
 * @example
 * try { await concat(files, { output: "out.mp4" }); }
 * catch (error) { if (MediaError.isInstance(error)) console.error(error.code, error.message); }
 */
export class MediaError extends Error {
  readonly [marker] = true;
  /** Stable machine-readable code, e.g. `ffmpeg_failed`. */
  readonly code: string;

  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? "media_error";
  }

  /** True for any media error, even from another installed copy of this package. */
  static isInstance(value: unknown): value is MediaError {
    return typeof value === "object" && value !== null && marker in value;
  }

  /** A plain object that survives `JSON.stringify` (for journals and events). */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}
