import { MediaError } from "./media-error.js";

/**
 * A film's sound that cannot be mixed as asked: a narration starting outside the film, a
 * file without sound, a loudness target out of range, nothing to mix.
 *
 * @example
 * catch (error) { if (MixInputError.isInstance(error)) console.error(error.option, error.index, error.message); }
 */
export class MixInputError extends MediaError {
  /** The option at fault, e.g. `narration`, `music.volume`, `loudness.integrated`. */
  readonly option: string;
  /** The entry at fault (0-based), when one entry of a list is. */
  readonly index: number | undefined;

  constructor(option: string, message: string, index?: number) {
    super(message, { code: "invalid_mix" });
    this.option = option;
    this.index = index;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), option: this.option, index: this.index };
  }
}
