import { describe, expect, it } from "vitest";
import { narrationPlacements } from "./mix-step.js";
import { reframeSize } from "./reframe-size.js";
import { filmWords } from "./word-captions-step.js";

const word = (text: string, start: number, end: number) => ({ word: text, start, end });

describe("filmWords", () => {
  it("moves each scene's words to its clip's start, a null scene having none", () => {
    const words = filmWords(
      [[word("Dawn", 0.1, 0.5)], null, [word("Dusk", 0.2, 0.6), word("falls", 0.7, 1)]],
      [0, 4, 6.5],
    );
    expect(words).toEqual([
      word("Dawn", 0.1, 0.5),
      word("Dusk", 6.7, 7.1),
      word("falls", 7.2, 7.5),
    ]);
  });

  it("takes one list as already on the film's timeline, without clips", () => {
    expect(filmWords([word("Dawn", 3, 3.4)], undefined)).toEqual([word("Dawn", 3, 3.4)]);
  });

  it("refuses per-scene words without clips, a count that differs, and a word past its clip", () => {
    expect(() => filmWords([[word("Dawn", 0, 1)]], undefined)).toThrow(/give `clips` too/);
    expect(() => filmWords([[word("Dawn", 0, 1)]], [0, 2])).toThrow(/1 lists for 2 clips/);
    expect(() => filmWords([[word("a", 0, 1), word("late", 2.5, 3)], []], [0, 2])).toThrow(
      /scene 1's word "late" is said at 2.50 s, after its clip ends \(2.00 s\)/,
    );
    expect(() => filmWords([[{ text: "Dawn" }]], [0])).toThrow(
      /words\[0\]\[0\]` is not a word timing/,
    );
    expect(() => filmWords("Dawn", [0])).toThrow(/must give a list/);
  });
});

describe("narrationPlacements", () => {
  const path = (file: unknown) => `/run/${String(file)}`;

  it("starts each file with its clip and keeps an explicit at; null leaves a scene silent", () => {
    expect(narrationPlacements(["a.mp3", null, "c.mp3"], [0, 4, 8.5], path)).toEqual([
      { file: "/run/a.mp3", at: 0 },
      { file: "/run/c.mp3", at: 8.5 },
    ]);
    expect(narrationPlacements([{ file: "a.mp3", at: 1.25 }], undefined, path)).toEqual([
      { file: "/run/a.mp3", at: 1.25 },
    ]);
  });

  it("refuses files without clips, a count that differs, and a negative start", () => {
    expect(() => narrationPlacements(["a.mp3"], undefined, path)).toThrow(/give `clips` too/);
    expect(() => narrationPlacements(["a.mp3"], [0, 3], path)).toThrow(/1 narrations for 2 clips/);
    expect(() => narrationPlacements([{ file: "a.mp3", at: -1 }], undefined, path)).toThrow(
      /narration\[0\]` must be \{ file, at \}/,
    );
    expect(() => narrationPlacements([["a.mp3"]], [0], path)).toThrow(/is a list, not a file/);
  });
});

describe("reframeSize", () => {
  it("keeps the source's shorter side for an aspect ratio, both sides even", () => {
    const wide = { width: 1920, height: 1080 };
    expect(reframeSize({ aspect: "9:16", source: wide })).toEqual({ width: 1080, height: 1920 });
    expect(reframeSize({ aspect: "1:1", source: wide })).toEqual({ width: 1080, height: 1080 });
    expect(reframeSize({ aspect: "4:5", source: wide })).toEqual({ width: 1080, height: 1350 });
    const tall = { width: 720, height: 1280 };
    expect(reframeSize({ aspect: "16:9", source: tall })).toEqual({ width: 1280, height: 720 });
    expect(reframeSize({ aspect: "9:16", source: { width: 720, height: 480 } })).toEqual({
      width: 480,
      height: 854,
    });
  });

  it("takes a size as asked, and refuses what is neither", () => {
    const source = { width: 1280, height: 720 };
    expect(reframeSize({ size: "1080x1920", source })).toEqual({ width: 1080, height: 1920 });
    expect(() => reframeSize({ aspect: "9/16", source })).toThrow(/W:H/);
    expect(() => reframeSize({ source })).toThrow(/WIDTHxHEIGHT or `aspect`/);
  });
});
