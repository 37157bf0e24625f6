/** One spoken word with its start and end, in seconds from the start of the audio. */
export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/**
 * The words of a text as they are spoken: split at white space, each without the
 * punctuation around it (a token of punctuation only is no word).
 * @example wordsOf("A storm, over the harbour!") // ["A", "storm", "over", "the", "harbour"]
 */
export function wordsOf(text: string): string[] {
  return text
    .split(/\s+/)
    .map((token) => token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((token) => token !== "");
}

/**
 * The words of a text as it writes them, one per word of {@link wordsOf}, in order: split
 * at white space, each with the punctuation around it (a token of punctuation only joins
 * the word before it, or the first word when it opens the text).
 * @example writtenWords("A storm — over the harbour!") // ["A", "storm —", "over", "the", "harbour!"]
 */
export function writtenWords(text: string): string[] {
  const words: string[] = [];
  let opening = "";
  for (const token of text.split(/\s+/)) {
    if (token === "") continue;
    if (/[\p{L}\p{N}]/u.test(token)) {
      words.push(opening === "" ? token : `${opening} ${token}`);
      opening = "";
    } else if (words.length > 0) {
      words[words.length - 1] += ` ${token}`;
    } else {
      opening = opening === "" ? token : `${opening} ${token}`;
    }
  }
  return words;
}

/**
 * Timed words spelt as the text writes them (its case and punctuation: `storm.` where a
 * transcription heard `storm`), for timings that say the text's words ({@link wordsDiffer}
 * found no difference); a heard token of punctuation only is left out (the text's own is kept).
 * @example spellAsWritten("Hello, world.", [{ word: "hello", start: 0, end: 0.4 }, { word: "world", start: 0.5, end: 0.9 }])
 * // [{ word: "Hello,", start: 0, end: 0.4 }, { word: "world.", start: 0.5, end: 0.9 }]
 */
export function spellAsWritten(text: string, timed: readonly TimedWord[]): TimedWord[] {
  const written = writtenWords(text);
  const heard = timed.filter((entry) => comparable(entry.word) !== "");
  return heard.map(({ word, start, end }, index) => ({
    word: written[index] ?? word,
    start,
    end,
  }));
}

/**
 * A speech result's outputs with its `words` spelt as `text` writes them, when they say its
 * words; else the outputs as given.
 * @example respellWords({ words: [{ word: "storm", start: 0, end: 0.5 }] }, "Storm.") // { words: [{ word: "Storm.", … }] }
 */
export function respellWords(
  outputs: Record<string, unknown>,
  text: unknown,
): Record<string, unknown> {
  const words = outputs.words;
  if (typeof text !== "string" || !Array.isArray(words)) return outputs;
  const timed = words as TimedWord[];
  if (!timed.every((entry) => typeof entry?.word === "string")) return outputs;
  if (wordsDiffer(text, timed)) return outputs;
  return { ...outputs, words: spellAsWritten(text, timed) };
}

/** A word as compared: lower case, letters and digits only. */
function comparable(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * Whether timed words say the text's words in order (case and punctuation aside): the
 * check a transcription passes before its timings are trusted. Returns the first place they
 * differ, or undefined when they agree.
 * @example wordsDiffer("Hello, world.", [{ word: "hello", start: 0, end: 0.4 }, { word: "world", start: 0.5, end: 0.9 }]) // undefined
 */
export function wordsDiffer(
  text: string,
  timed: readonly TimedWord[],
): { at: number; expected?: string; heard?: string } | undefined {
  const expected = wordsOf(text).map(comparable).filter(Boolean);
  const heard = timed.map((entry) => comparable(entry.word)).filter(Boolean);
  const length = Math.max(expected.length, heard.length);
  for (let at = 0; at < length; at++) {
    if (expected[at] !== heard[at]) {
      return {
        at,
        ...(expected[at] !== undefined ? { expected: expected[at] } : {}),
        ...(heard[at] !== undefined ? { heard: heard[at] } : {}),
      };
    }
  }
  return undefined;
}

/** Timings that are sane: each word within the audio, starting before it ends, in order. */
export function timingsHold(timed: readonly TimedWord[], duration: number): boolean {
  let last = 0;
  for (const { start, end } of timed) {
    if (!(start >= last - 0.001 && start < end && end <= duration + 0.05)) return false;
    last = start;
  }
  return true;
}

/** How long a word takes to say, in relative units: its syllables, else its characters. */
function weightOf(word: string): number {
  const latin = word.toLowerCase().replace(/[^a-z]/g, "");
  if (latin.length > 0) {
    // Vowel groups, a silent final e left out: "storm" 1, "harbour" 2, "narration" 3.
    const groups = latin.replace(/e$/, "").match(/[aeiouy]+/g)?.length ?? 0;
    return Math.max(1, groups);
  }
  // Scripts without Latin letters: by characters, a syllable for every two or so.
  return Math.max(1, [...word.replace(/[^\p{L}\p{N}]+/gu, "")].length / 2);
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Word timings estimated from the text alone: the audio's duration shared among the words
 * by their syllables (characters outside the Latin script), in order, without gaps. Only a
 * guess: the runner says so with a warning wherever it uses one. Words are spelt as the text
 * writes them (their punctuation kept).
 * @example estimateWordTimings("A storm over the harbour.", 2) // [{ word: "A", start: 0, end: 0.286 }, …, { word: "harbour.", … }]
 */
export function estimateWordTimings(text: string, duration: number): TimedWord[] {
  const words = writtenWords(text);
  const weights = words.map(weightOf);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let at = 0;
  return words.map((word, index) => {
    const start = at;
    at += (duration * (weights[index] ?? 1)) / total;
    return { word, start: round(start), end: round(index === words.length - 1 ? duration : at) };
  });
}
