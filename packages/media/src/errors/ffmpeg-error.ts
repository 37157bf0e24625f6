import { basename } from "node:path";
import { ffmpegErrorLine } from "./ffmpeg-error-line.js";
import { MediaError } from "./media-error.js";

/**
 * ffmpeg or ffprobe exited with a non-zero code (or was killed by a signal).
 *
 * @example
 * catch (error) { if (FfmpegError.isInstance(error)) console.error(error.exitCode, error.stderrTail); }
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
  /** The program that failed: `ffmpeg` or `ffprobe` (its file name). */
  readonly program: string;
  /** The one line of the output that says what went wrong (see `ffmpegErrorLine`). */
  readonly line: string | undefined;
  /**
   * Everything the process wrote to stderr (its first and last 64 KiB when it wrote more), for
   * a log file; not part of the JSON form (events and journals carry `stderrTail`).
   */
  readonly output: string;

  constructor(details: {
    binary: string;
    exitCode: number | null;
    signal?: string | null;
    stderrTail: string;
    args: readonly string[];
    /** The whole retained stderr (default: the tail). */
    output?: string;
    cause?: unknown;
  }) {
    const how =
      details.exitCode === null
        ? `was killed by ${details.signal}`
        : `exited with code ${details.exitCode}`;
    const line = ffmpegErrorLine(details.output ?? details.stderrTail);
    super(`${details.binary} ${how}${line ? `: ${line}` : ""}`, {
      code: "ffmpeg_failed",
      cause: details.cause,
    });
    this.exitCode = details.exitCode;
    this.signal = details.signal ?? null;
    this.stderrTail = details.stderrTail;
    this.args = details.args;
    this.line = line;
    this.program = basename(details.binary).replace(/\.exe$/i, "");
    this.output = details.output ?? details.stderrTail;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      program: this.program,
      exitCode: this.exitCode,
      signal: this.signal,
      stderrTail: this.stderrTail,
      args: this.args,
    };
  }
}
