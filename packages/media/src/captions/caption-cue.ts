import { CaptionsInputError } from "../errors/captions-input-error.js";

/** One caption on the timeline of a video. */
export interface CaptionCue {
  /** Position in the storyboard or file (0-based). */
  index: number;
  /** Seconds from the start of the video. */
  start: number;
  /** Seconds from the start of the video; after `start`. */
  end: number;
  /** The text; line breaks are kept, long lines are wrapped when written. */
  text: string;
}

/**
 * Check cues given by a caller: a non-empty list of finite, non-negative times with each end
 * after its start, and string texts.
 *
 * @example
 * validateCues([{ index: 0, start: 0, end: 2, text: "Dawn" }]);
 */
export function validateCues(cues: readonly CaptionCue[]): void {
  if (!Array.isArray(cues) || cues.length === 0) {
    throw new CaptionsInputError("cues", "Expected `cues` to be a non-empty list of captions");
  }
  cues.forEach((cue, index) => {
    const where = `\`cues[${index}]\``;
    if (typeof cue?.text !== "string") {
      throw new CaptionsInputError("cues", `Expected ${where}.text to be a string`, index);
    }
    if (!Number.isFinite(cue.start) || !Number.isFinite(cue.end) || cue.start < 0) {
      throw new CaptionsInputError(
        "cues",
        `Expected ${where} to have finite, non-negative start and end seconds; got ${cue.start} → ${cue.end}`,
        index,
      );
    }
    if (cue.end <= cue.start) {
      throw new CaptionsInputError(
        "cues",
        `Expected ${where} to end after it starts; got ${cue.start} → ${cue.end}`,
        index,
      );
    }
  });
}
