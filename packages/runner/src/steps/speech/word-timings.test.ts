import { describe, expect, it } from "vitest";
import {
  estimateWordTimings,
  spellAsWritten,
  wordsDiffer,
  wordsOf,
  writtenWords,
} from "./word-timings.js";

describe("words as the text writes them", () => {
  it("keeps each word's punctuation, one written word per spoken word", () => {
    const text =
      'A lighthouse keeper finds a red fox sheltering from the storm.  "Come in!" she says — softly…';
    const written = writtenWords(text);
    expect(written).toEqual([
      "A",
      "lighthouse",
      "keeper",
      "finds",
      "a",
      "red",
      "fox",
      "sheltering",
      "from",
      "the",
      "storm.",
      '"Come',
      'in!"',
      "she",
      "says —",
      "softly…",
    ]);
    expect(written).toHaveLength(wordsOf(text).length);
    // Punctuation opening the text joins its first word.
    expect(writtenWords("— Dawn, at last.")).toEqual(["— Dawn,", "at", "last."]);
  });

  it("spells a transcription's timed words as the text writes them, its timings untouched", () => {
    const text = "Hello, world. Bye!";
    const heard = [
      { word: "hello", start: 0, end: 0.4 },
      { word: "world", start: 0.5, end: 0.9 },
      { word: ".", start: 0.9, end: 0.95 },
      { word: "bye", start: 1.2, end: 1.5 },
    ];
    expect(wordsDiffer(text, heard)).toBeUndefined();
    expect(spellAsWritten(text, heard)).toEqual([
      { word: "Hello,", start: 0, end: 0.4 },
      { word: "world.", start: 0.5, end: 0.9 },
      { word: "Bye!", start: 1.2, end: 1.5 },
    ]);
  });

  it("estimates timings for the written words, punctuation kept and not counted as length", () => {
    const words = estimateWordTimings("A storm. 日本語。", 2);
    expect(words.map((entry) => entry.word)).toEqual(["A", "storm.", "日本語。"]);
    expect(words.at(-1)?.end).toBe(2);
    // "日本語。" weighs its three characters, not four: 1.5 of 3.5 units.
    expect((words.at(-1)?.end ?? 0) - (words.at(-1)?.start ?? 0)).toBeCloseTo((2 * 1.5) / 3.5, 2);
  });
});
