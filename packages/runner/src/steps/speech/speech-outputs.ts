import { arrayOf, NUMBER, objectOf, STRING, type StaticType } from "../static-types.js";

/** One timed word of a narration. */
export const timedWordType: StaticType = objectOf({ word: STRING, start: NUMBER, end: NUMBER });

/**
 * What a speech step gives: the audio `file` in the run directory, its `duration` in
 * seconds (probed), its `words` with their start and end, where the timings came from
 * (`words_from`: `speech` when the speech answer timed them, `transcription` or `estimate`), its `credits` and the file's `probe`.
 * @example speechOutputType.type // "object"
 */
export const speechOutputType: StaticType = objectOf({
  file: STRING,
  duration: NUMBER,
  words: arrayOf(timedWordType),
  words_from: STRING,
  credits: NUMBER,
  probe: objectOf({}),
});
