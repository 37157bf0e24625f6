import { describe, expect, it } from "vitest";
import { wordsFromAlignment } from "./alignment-words.js";

/** An alignment of `text` where character i spans [i/10, (i+1)/10). */
function evenly(text: string) {
  const characters = [...text];
  return {
    characters,
    character_start_times_seconds: characters.map((_, index) => index / 10),
    character_end_times_seconds: characters.map((_, index) => (index + 1) / 10),
  };
}

describe("wordsFromAlignment", () => {
  it("keeps the text's punctuation on its words, from its first character's start to its last's end", () => {
    expect(wordsFromAlignment(evenly("Hi, you."))).toEqual([
      { word: "Hi,", start: 0, end: 0.3 },
      { word: "you.", start: 0.4, end: 0.8 },
    ]);
  });

  it("joins a token of punctuation alone to the word before it, and skips runs of white space", () => {
    expect(wordsFromAlignment(evenly("Go  — now\n")).map((word) => word.word)).toEqual([
      "Go —",
      "now",
    ]);
  });

  it("gives nothing for an alignment of white space only", () => {
    expect(wordsFromAlignment(evenly("   "))).toEqual([]);
  });
});
