import { describe, expect, it } from "vitest";
import { CaptionsInputError } from "../errors/captions-input-error.js";
import { assTime } from "./ass-document.js";
import { wordCaptionsScript } from "./burn-word-captions.js";
import { wordPages, wordSeparator } from "./word-pages.js";
import type { WordTiming } from "./word-timing.js";

const words: WordTiming[] = [
  { word: "Café", start: 0.2, end: 0.6 },
  { word: "déjà", start: 0.7, end: 1.1 },
  { word: "vu", start: 1.2, end: 1.6 },
  { word: "你好", start: 2.0, end: 2.4 },
  { word: "世界", start: 2.5, end: 2.9 },
];

/** The Dialogue events of an ASS script: start, end (as written) and text. */
function events(script: string) {
  return script
    .split("\n")
    .filter((line) => line.startsWith("Dialogue:"))
    .map((line) => {
      const fields = line.slice("Dialogue: ".length).split(",");
      return { start: fields[1], end: fields[2], text: fields.slice(9).join(",") };
    });
}

describe("wordPages", () => {
  it("fills lines by width, starts a page at a pause or the word limit, and never overlaps pages", () => {
    const pages = wordPages(words, {
      maxLineLength: 12,
      maxLines: 2,
      maxWords: 3,
      maxPause: 0.3,
      linger: 0.3,
    });
    expect(
      pages.map((page) => page.words.map((word) => `${word.line}${word.separator}${word.word}`)),
    ).toEqual([
      ["0Café", "0 déjà", "0 vu"],
      ["0你好", "0世界"],
    ]);
    expect(pages[0]?.end).toBeCloseTo(1.9, 6);
    expect(pages[1]?.start).toBe(2.0);
    expect(pages[1]?.end).toBeCloseTo(3.2, 6);
    const narrow = wordPages(words.slice(0, 3), {
      maxLineLength: 6,
      maxLines: 2,
      maxWords: 9,
      maxPause: 9,
      linger: 0,
    });
    expect(narrow.map((page) => page.words.map((word) => word.line))).toEqual([[0, 1], [0]]);
  });

  it("joins words of unspaced scripts without a space", () => {
    expect(wordSeparator("日本", "語")).toBe("");
    expect(wordSeparator("日本", "Tokyo")).toBe(" ");
    expect(wordSeparator("Café", "déjà")).toBe(" ");
  });
});

describe("wordCaptionsScript", () => {
  it("highlight: each word's event starts at its start, with that word alone in the highlight colour", async () => {
    const { text } = await wordCaptionsScript(
      { words, mode: "highlight", preset: "social", highlightColor: "#ffd500" },
      640,
      360,
    );
    const list = events(text);
    expect(list).toHaveLength(words.length);
    words.forEach((word, index) => {
      const event = list[index];
      expect(event?.start).toBe(assTime(word.start));
      const highlighted = [
        ...(event?.text ?? "").matchAll(/\{\\c&H00D5FF&\}(?:\{\\fn[^}]*\})?([^{]+)/g),
      ];
      expect(highlighted.map((match) => match[1])).toEqual([word.word]);
    });
    // A word's highlight lasts until the next word starts; the page's last until the page ends.
    expect(list[0]?.end).toBe(assTime(0.7));
    expect(list[2]?.end).toBe(assTime(2.0));
    // The Chinese words are drawn with the Chinese font.
    expect(list[3]?.text).toMatch(/\\fnNoto Sans S Chinese[^}]*\}你好/);
    expect(text).toMatch(
      /^Style: Caption,DejaVu Sans,31,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,-1,.*,5,/m,
    );
    expect(text).toContain("WrapStyle: 2");
  });

  it("pop: words not yet spoken are drawn transparent, so each appears in place", async () => {
    const { text } = await wordCaptionsScript({ words, mode: "pop", preset: "subtitle" }, 640, 360);
    const list = events(text);
    // One page of one line: the Latin words and the Chinese ones after a space.
    expect(list.map((event) => event.text.replace(/\{\\fn[^}]*\}/g, ""))).toEqual([
      "Café {\\alpha&HFF&}déjà vu 你好世界",
      "Café déjà {\\alpha&HFF&}vu 你好世界",
      "Café déjà vu {\\alpha&HFF&}你好世界",
      "Café déjà vu 你好{\\alpha&HFF&}世界",
      "Café déjà vu 你好世界",
    ]);
    expect(list[0]?.start).toBe(assTime(0.2));
    expect(text).toMatch(/^Style: Caption,DejaVu Sans,20,.*,0,2,/m);
  });

  it("refuses words out of order, naming the entry", async () => {
    const error = await wordCaptionsScript(
      { words: [words[1] as WordTiming, words[0] as WordTiming] },
      640,
      360,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CaptionsInputError);
    expect(error).toMatchObject({ option: "words", index: 1 });
  });
});
