import { MediaError } from "./media-error.js";

/**
 * A font file given for captions cannot be read as a TrueType/OpenType font.
 *
 * @example
 * catch (error) { if (FontFileError.isInstance(error)) console.error(error.file, error.message); }
 */
export class FontFileError extends MediaError {
  /** The font file. */
  readonly file: string;

  constructor(file: string, reason: string, cause?: unknown) {
    super(
      `Cannot use the font ${file}: ${reason}. Give a .ttf or .otf file (TrueType or OpenType; not WOFF2).`,
      { code: "font_unreadable", cause },
    );
    this.file = file;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), file: this.file };
  }
}
