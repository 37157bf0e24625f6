import { CaptionsInputError } from "../errors/captions-input-error.js";

/** A spoken word and when it is said, in seconds on the video's timeline. */
export interface WordTiming {
  word: string;
  start: number;
  end: number;
}

/**
 * Check word timings given by a caller: a non-empty list of words with finite,
 * non-negative times, each ending after it starts and starting no earlier than the one
 * before it.
 *
 * @example
 * validateWords([{ word: "Dawn", start: 0.2, end: 0.6 }]);
 */
export function validateWords(words: readonly WordTiming[]): void {
  if (!Array.isArray(words) || words.length === 0) {
    throw new CaptionsInputError(
      "words",
      "Expected `words` to be a non-empty list of { word, start, end }",
    );
  }
  let previous = 0;
  words.forEach((entry, index) => {
    const where = `\`words[${index}]\``;
    if (typeof entry?.word !== "string" || entry.word.trim() === "") {
      throw new CaptionsInputError(
        "words",
        `Expected ${where}.word to be a non-empty string`,
        index,
      );
    }
    if (!Number.isFinite(entry.start) || !Number.isFinite(entry.end) || entry.start < 0) {
      throw new CaptionsInputError(
        "words",
        `Expected ${where} to have finite, non-negative start and end seconds; got ${entry.start} → ${entry.end}`,
        index,
      );
    }
    if (entry.end <= entry.start) {
      throw new CaptionsInputError(
        "words",
        `Expected ${where} to end after it starts; got ${entry.start} → ${entry.end}`,
        index,
      );
    }
    if (entry.start < previous) {
      throw new CaptionsInputError(
        "words",
        `Expected ${where} to start no earlier than the word before it (${previous}); got ${entry.start}`,
        index,
      );
    }
    previous = entry.start;
  });
}
