import { MediaError } from "./media-error.js";

/**
 * Captions that cannot be laid out: no texts, a different number of texts and clip
 * durations, a cue that ends before it starts, a transition as long as a clip.
 *
 * @example
 * catch (error) { if (CaptionsInputError.isInstance(error)) console.error(error.option, error.index); }
 */
export class CaptionsInputError extends MediaError {
  /** The option at fault, e.g. `texts`, `durations`, `cues`, `transition.duration`. */
  readonly option: string;
  /** The entry at fault (0-based), when one entry is. */
  readonly index: number | undefined;

  constructor(option: string, message: string, index?: number) {
    super(message, { code: "invalid_captions" });
    this.option = option;
    this.index = index;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), option: this.option, index: this.index };
  }
}
