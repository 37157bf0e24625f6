import { MediaError } from "./media-error.js";

/**
 * ffmpeg kept running but its output time stopped advancing for longer than the stall
 * timeout (e.g. a looped input it cannot decode); the process was killed.
 *
 * @example
 * catch (error) { if (FfmpegStalledError.isInstance(error)) console.error(error.stalledMs, error.args); }
 */
export class FfmpegStalledError extends MediaError {
  /** How long no progress was seen, in milliseconds. */
  readonly stalledMs: number;
  /** The argument vector of the killed process. */
  readonly args: readonly string[];

  constructor(stalledMs: number, args: readonly string[]) {
    super(`ffmpeg made no progress for ${Math.round(stalledMs / 1000)} s and was killed`, {
      code: "ffmpeg_stalled",
    });
    this.stalledMs = stalledMs;
    this.args = args;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), stalledMs: this.stalledMs, args: this.args };
  }
}
