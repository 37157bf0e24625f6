import { MediaError } from "./media-error.js";

/**
 * ffmpeg or ffprobe exited with a non-zero code (or was killed by a signal).
 *
 * @example
 * catch (error) { if (error instanceof FfmpegError) console.error(error.exitCode, error.stderrTail); }
 */
export class FfmpegError extends MediaError {
  /** Process exit code, or null when it was ended by a signal. */
  readonly exitCode: number | null;
  /** Signal that ended the process, if any. */
  readonly signal: string | null;
  /** The last lines of the process's stderr. */
  readonly stderrTail: string;
  /** The argument vector (no shell was involved). */
  readonly args: readonly string[];

  constructor(details: {
    binary: string;
    exitCode: number | null;
    signal?: string | null;
    stderrTail: string;
    args: readonly string[];
    cause?: unknown;
  }) {
    const how =
      details.exitCode === null
        ? `was killed by ${details.signal}`
        : `exited with code ${details.exitCode}`;
    const tail = details.stderrTail.trim();
    super(`${details.binary} ${how}${tail ? `: ${tail}` : ""}`, {
      code: "ffmpeg_failed",
      cause: details.cause,
    });
    this.exitCode = details.exitCode;
    this.signal = details.signal ?? null;
    this.stderrTail = details.stderrTail;
    this.args = details.args;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      exitCode: this.exitCode,
      signal: this.signal,
      stderrTail: this.stderrTail,
      args: this.args,
    };
  }
}
