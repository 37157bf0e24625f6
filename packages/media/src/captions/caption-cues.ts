import { CaptionsInputError } from "../errors/captions-input-error.js";
import type { CaptionCue } from "./caption-cue.js";

/** What {@link captionCues} lays out. */
export interface CaptionCuesInput {
  /** One caption per clip (scene), in order. An empty string leaves that clip uncaptioned. */
  texts: readonly string[];
  /** Each clip's length in seconds, in the same order (as `probe` reports its video). */
  durations: readonly number[];
  /** The transition the clips are joined with (`concat`'s `transition`), if any. */
  transition?: { duration: number } | undefined;
}

/**
 * Time one caption per clip on the joined video. Clips are laid out as `concat` lays them
 * out: clip `i` starts one transition before clip `i−1` ends, so the video lasts the sum of
 * the clips minus one transition per join. A caption changes at the middle of each
 * transition (where a crossfade is half-way and a dip to black is darkest); the first starts
 * at 0 and the last ends with the video. Without a transition the captions change exactly
 * where the clips do.
 *
 * @example
 * captionCues({ texts: ["Dawn", "Storm", "Calm"], durations: [2, 3.5, 1.25], transition: { duration: 0.5 } });
 * // [{ index: 0, start: 0, end: 1.75, text: "Dawn" },
 * //  { index: 1, start: 1.75, end: 4.75, text: "Storm" },
 * //  { index: 2, start: 4.75, end: 5.75, text: "Calm" }]
 */
export function captionCues(input: CaptionCuesInput): CaptionCue[] {
  const { texts, durations } = input;
  if (!Array.isArray(texts) || texts.length === 0) {
    throw new CaptionsInputError("texts", "Expected `texts` to be a non-empty list of captions");
  }
  if (!Array.isArray(durations) || durations.length !== texts.length) {
    throw new CaptionsInputError(
      "durations",
      `Expected one duration per caption: ${texts.length} texts but ${Array.isArray(durations) ? durations.length : "no"} durations`,
    );
  }
  texts.forEach((text, index) => {
    if (typeof text !== "string") {
      throw new CaptionsInputError("texts", `Expected \`texts[${index}]\` to be a string`, index);
    }
  });
  durations.forEach((duration, index) => {
    if (!(Number.isFinite(duration) && duration > 0)) {
      throw new CaptionsInputError(
        "durations",
        `Expected \`durations[${index}]\` to be a positive number of seconds; got ${duration}`,
        index,
      );
    }
  });
  const overlap = texts.length > 1 ? (input.transition?.duration ?? 0) : 0;
  if (!(Number.isFinite(overlap) && overlap >= 0)) {
    throw new CaptionsInputError(
      "transition.duration",
      `Expected \`transition.duration\` to be a non-negative number of seconds; got ${overlap}`,
    );
  }
  const shortest = Math.min(...durations);
  if (overlap > 0 && overlap >= shortest) {
    throw new CaptionsInputError(
      "transition.duration",
      `Expected \`transition.duration\` (${overlap}s) to be shorter than the shortest clip (${shortest}s)`,
      durations.indexOf(shortest),
    );
  }
  // Boundary i (between clip i−1 and clip i) is the middle of their overlap.
  const boundaries: number[] = [0];
  let clipStart = 0;
  for (let index = 1; index < durations.length; index++) {
    clipStart += (durations[index - 1] ?? 0) - overlap;
    boundaries.push(clipStart + overlap / 2);
  }
  const total = clipStart + (durations[durations.length - 1] ?? 0);
  return texts.map((text, index) => ({
    index,
    start: boundaries[index] ?? 0,
    end: boundaries[index + 1] ?? total,
    text,
  }));
}
