import { MediaError } from "./media-error.js";

/**
 * The time asked of {@link extractFrame} is before the clip's first frame or after its last.
 *
 * @example
 * catch (error) { if (FrameOutOfRangeError.isInstance(error)) console.error(error.at, error.duration); }
 */
export class FrameOutOfRangeError extends MediaError {
  /** The clip. */
  readonly file: string;
  /** The second that was asked for. */
  readonly at: number;
  /** How long the clip's video lasts, in seconds. */
  readonly duration: number;

  constructor(file: string, at: number, duration: number) {
    super(
      `Cannot take a frame at ${at}s of ${file}: its video lasts ${duration.toFixed(3)}s. Ask for a time from 0 to ${duration.toFixed(3)}, or "first" / "last".`,
      { code: "frame_out_of_range" },
    );
    this.file = file;
    this.at = at;
    this.duration = duration;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), file: this.file, at: this.at, duration: this.duration };
  }
}
