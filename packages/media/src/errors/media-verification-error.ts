import { MediaError } from "./media-error.js";

/**
 * ffmpeg reported success but the output is not what was asked for
 * (wrong duration, missing stream, wrong size).
 *
 * @example
 * catch (error) { if (MediaVerificationError.isInstance(error)) console.error(error.problems); }
 */
export class MediaVerificationError extends MediaError {
  /** What was wrong, one entry per problem. */
  readonly problems: readonly string[];
  /** The file that failed verification (already removed from the destination). */
  readonly file: string;

  constructor(file: string, problems: readonly string[]) {
    super(`Output ${file} failed verification: ${problems.join("; ")}`, {
      code: "media_verification_failed",
    });
    this.file = file;
    this.problems = problems;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), file: this.file, problems: this.problems };
  }
}
