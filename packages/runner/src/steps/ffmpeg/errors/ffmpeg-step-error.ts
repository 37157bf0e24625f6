import { RunnerError } from "../../../errors/runner-error.js";

/**
 * ffmpeg failed in a step: the message is ffmpeg's one meaningful line and where its whole
 * output was kept (a log file in the run directory, with the command line).
 * @example throw new FfmpegStepError({ line: "Unable to open x.srt", exitCode: 1, log: "logs/final.ffmpeg.log" });
 */
export class FfmpegStepError extends RunnerError {
  /** ffmpeg's line that says what went wrong. */
  readonly line: string | undefined;
  readonly exitCode: number | null;
  /** `ffmpeg` or `ffprobe`. */
  readonly program: string;
  /** The log file (command line and whole output), relative to the run directory. */
  readonly log: string | undefined;
  constructor(
    details: {
      line: string | undefined;
      exitCode: number | null;
      log: string | undefined;
      program?: string;
    },
    options: { cause?: unknown } = {},
  ) {
    const how = details.exitCode === null ? "was killed" : `exited with code ${details.exitCode}`;
    super(
      "ffmpeg_failed",
      `${details.program ?? "ffmpeg"} ${how}${details.line ? `: ${details.line}` : ""}${details.log ? ` (its whole output: ${details.log})` : ""}`,
      options,
    );
    this.line = details.line;
    this.exitCode = details.exitCode;
    this.program = details.program ?? "ffmpeg";
    this.log = details.log;
  }
}
