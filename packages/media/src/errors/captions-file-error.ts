import { MediaError } from "./media-error.js";

/**
 * A subtitle file that cannot be read (`captions_file_unreadable`: missing, a directory, not
 * UTF-8) or is not valid SRT (`captions_file_invalid`, with the 1-based line at fault).
 *
 * @example
 * catch (error) { if (CaptionsFileError.isInstance(error)) console.error(`${error.file}:${error.line}`, error.message); }
 */
export class CaptionsFileError extends MediaError {
  /** The file. */
  readonly file: string;
  /** The 1-based line at fault, when one line is. */
  readonly line: number | undefined;

  constructor(
    code: "captions_file_unreadable" | "captions_file_invalid",
    file: string,
    message: string,
    options: { line?: number; cause?: unknown } = {},
  ) {
    super(message, { code, cause: options.cause });
    this.file = file;
    this.line = options.line;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), file: this.file, line: this.line };
  }
}
