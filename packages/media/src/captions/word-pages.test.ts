import { describe, expect, it } from "vitest";
import { CaptionsInputError } from "../errors/captions-input-error.js";
import { wordCaptionsScript } from "./burn-word-captions.js";
import { type WordCaptionMode, wordCaptionLayout } from "./index.js";
import { endsSentence, type WordPage, wordPages } from "./word-pages.js";
import type { WordTiming } from "./word-timing.js";

/** The narrated example's three scenes as spoken (timings from its clip's start). */
const scenes: [string, number, number][][] = [
  [
    ["A", 0.15, 0.278],
    ["lighthouse", 0.338, 1.166],
    ["keeper", 1.226, 1.648],
    ["finds", 1.708, 2.32],
    ["a", 2.38, 2.508],
    ["red", 2.568, 2.853],
    ["fox", 2.913, 3.263],
    ["sheltering", 3.323, 4.082],
    ["from", 4.142, 4.509],
    ["the", 4.569, 4.696],
    ["storm.", 4.756, 5.406],
  ],
  [
    ["She", 0.15, 0.42],
    ["shares", 0.48, 0.992],
    ["her", 1.052, 1.293],
    ["supper", 1.353, 1.779],
    ["with", 1.839, 2.028],
    ["it", 2.088, 2.346],
    ["by", 2.406, 2.704],
    ["the", 2.764, 2.891],
    ["lamp.", 2.951, 3.359],
  ],
  [
    ["At", 0.15, 0.4],
    ["dawn", 0.46, 0.95],
    ["the", 1.01, 1.14],
    ["fox", 1.2, 1.55],
    ["follows", 1.61, 2.4],
    ["her", 2.46, 2.7],
    ["along", 2.76, 3.5],
    ["the", 3.56, 3.7],
    ["cliff", 3.76, 4.2],
    ["path.", 4.26, 4.9],
  ],
];
/** Where each clip starts on the film: 5.67 s, 3.63 s and 4.96 s clips joined by 0.3 s crossfades. */
const starts = [0, 5.3667, 8.6917];
const cuts = starts.slice(1);

/** The film's words, each with its scene, with or without the text's punctuation. */
function filmWords(punctuated = true): (WordTiming & { scene: number })[] {
  return scenes.flatMap((words, scene) =>
    words.map(([word, start, end]) => ({
      word: punctuated ? word : word.replace(/[.]$/, ""),
      start: start + (starts[scene] ?? 0),
      end: end + (starts[scene] ?? 0),
      scene,
    })),
  );
}

const subtitle = {
  maxLineLength: 42,
  maxLines: 2,
  maxWords: Number.POSITIVE_INFINITY,
  maxPause: 1.2,
  linger: 0.6,
};
const social = { maxLineLength: 17, maxLines: 2, maxWords: 3, maxPause: 0.8, linger: 0.4 };
const textOf = (page: WordPage) => page.words.map((word) => word.word).join(" ");

/** The scene a page's words come from; fails when they come from more than one. */
function sceneOf(page: WordPage, words: readonly (WordTiming & { scene: number })[]): number {
  const found = new Set(
    page.words.map((paged) => words.find((word) => word.start === paged.start)?.scene),
  );
  expect([...found], textOf(page)).toHaveLength(1);
  return [...found][0] ?? -1;
}

describe("endsSentence", () => {
  it("knows a sentence's end by its mark, inside closing quotes too, and not an abbreviation's", () => {
    for (const word of ["storm.", "lamp!", "why?", "so…", '"Run!"', "(yes.)", "終わり。", "好！"])
      expect(endsSentence(word), word).toBe(true);
    for (const word of ["storm", "fox,", "Mr.", "Dr.", "J.", "e.g.", "etc.", "well-known", "—"])
      expect(endsSentence(word), word).toBe(false);
  });
});

describe("wordPages at sentence ends and cuts", () => {
  it("subtitle paging: one page per scene, its sentence whole with its full stop", () => {
    const words = filmWords();
    const pages = wordPages(words, subtitle, cuts);
    expect(pages.map(textOf)).toEqual([
      "A lighthouse keeper finds a red fox sheltering from the storm.",
      "She shares her supper with it by the lamp.",
      "At dawn the fox follows her along the cliff path.",
    ]);
    expect(pages.map((page) => sceneOf(page, words))).toEqual([0, 1, 2]);
  });

  it("social paging: groups of at most three words, none across a sentence's end or a cut", () => {
    const words = filmWords();
    const pages = wordPages(words, social, cuts);
    const texts = pages.map(textOf);
    expect(texts).toEqual([
      "A lighthouse keeper",
      "finds a red",
      "fox sheltering from",
      "the storm.",
      "She shares her",
      "supper with it",
      "by the lamp.",
      "At dawn the",
      "fox follows her",
      "along the cliff",
      "path.",
    ]);
    expect(texts.filter((text) => text.startsWith("She"))).toHaveLength(1);
    for (const page of pages) {
      expect(page.words.length).toBeLessThanOrEqual(3);
      sceneOf(page, words);
      // A sentence's end is only ever a page's last word.
      for (const word of page.words.slice(0, -1)) expect(endsSentence(word.word)).toBe(false);
    }
  });

  it("breaks at a cut even where the text has no full stop", () => {
    const words = filmWords(false);
    const joined = wordPages(words, subtitle);
    expect(joined.map(textOf)[0]).toBe(
      "A lighthouse keeper finds a red fox sheltering from the storm She shares her",
    );
    const pages = wordPages(words, subtitle, cuts);
    expect(pages.map((page) => sceneOf(page, words))).toEqual([0, 1, 2]);
    expect(textOf(pages[1] as WordPage)).toBe("She shares her supper with it by the lamp");
  });

  it("a page leaves at the cut once its words are said, and lingers within its clip", () => {
    const words = filmWords();
    const pages = wordPages(words, subtitle, cuts);
    const [first, second, third] = pages as [WordPage, WordPage, WordPage];
    // "storm." is still said at the cut (5.3667 → 5.406): the page stays until it ends.
    expect(first.end).toBeCloseTo(5.406, 6);
    // So is "lamp." (8.7257, the cut at 8.6917); the last page lingers its 0.6 s.
    expect(second.end).toBeCloseTo((starts[1] ?? 0) + 3.359, 6);
    expect(third.end).toBeCloseTo((starts[2] ?? 0) + 4.9 + 0.6, 6);
    // A word that ends well before the cut lingers only up to it.
    const short = wordPages(
      [
        { word: "Dawn", start: 0, end: 0.8 },
        { word: "Dusk", start: 1.5, end: 2 },
      ],
      subtitle,
      [1],
    );
    expect(short.map((page) => [page.start, page.end])).toEqual([
      [0, 1],
      [1.5, 2.6],
    ]);
  });
});

/** Dialogue events of an ASS script: start and end in seconds, and the text without tags. */
function events(script: string) {
  const seconds = (time: string) => {
    const [hours, minutes, rest] = time.split(":");
    return Number(hours) * 3600 + Number(minutes) * 60 + Number(rest);
  };
  return script
    .split("\n")
    .filter((line) => line.startsWith("Dialogue:"))
    .map((line) => {
      const fields = line.slice("Dialogue: ".length).split(",");
      const text = fields.slice(9).join(",");
      return {
        start: seconds(fields[1] ?? ""),
        end: seconds(fields[2] ?? ""),
        // The words drawn, transparent ones (pop, not yet said) left out.
        shown: text
          .replace(/\{\\alpha&HFF&\}.*$/, "")
          .replace(/\{[^}]*\}/g, "")
          .replace(/\\N/g, " ")
          .trim(),
        all: text.replace(/\{[^}]*\}/g, "").replace(/\\N/g, " "),
      };
    });
}

describe("word captions across the cuts, both presets and modes", () => {
  const cases: [string, "subtitle" | "social", WordCaptionMode, number, number][] = [
    ["16:9 highlight subtitles", "subtitle", "highlight", 854, 480],
    ["9:16 pop groups", "social", "pop", 480, 854],
    ["16:9 pop subtitles", "subtitle", "pop", 854, 480],
    ["9:16 highlight groups", "social", "highlight", 480, 854],
  ];
  for (const [name, preset, mode, width, height] of cases) {
    it(`${name}: at each scene's start only its words are on screen, with their punctuation`, async () => {
      const words = filmWords().map(({ word, start, end }) => ({ word, start, end }));
      const { text, pages } = await wordCaptionsScript(
        { words, preset, mode, cuts },
        width,
        height,
      );
      expect(wordCaptionLayout(preset, width, height).limits.maxLines).toBe(2);
      const list = events(text);
      const sceneWords = scenes.map((scene) => new Set(scene.map(([word]) => word)));
      for (const event of list) {
        const drawn = event.all.split(/\s+/).filter(Boolean);
        // Each event's page comes from one scene only.
        expect(
          sceneWords.some((set) => drawn.every((word) => set.has(word))),
          event.all,
        ).toBe(true);
      }
      scenes.forEach((scene, index) => {
        // Just after it starts (ASS times are in hundredths).
        const firstSaid = (starts[index] ?? 0) + (scene[0]?.[1] ?? 0) + 0.02;
        const showing = list.filter((event) => event.start <= firstSaid && event.end > firstSaid);
        expect(showing).toHaveLength(1);
        expect(showing[0]?.all.startsWith(scene[0]?.[0] ?? "?")).toBe(true);
        // Nothing of the scene before is on screen once this scene's first word is said.
        expect(showing[0]?.all.split(/\s+/).every((word) => sceneWords[index]?.has(word))).toBe(
          true,
        );
      });
      expect(pages.flatMap((page) => page.words.map((word) => word.word))).toContain("storm.");
      expect(list.some((event) => event.all.includes("storm."))).toBe(true);
      expect(list.some((event) => event.all.includes("storm She"))).toBe(false);
    });
  }

  it("refuses a cut that is not a number of seconds, naming it", async () => {
    const error = await wordCaptionsScript(
      { words: [{ word: "Dawn", start: 0, end: 1 }], cuts: [2, Number.NaN] },
      640,
      360,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CaptionsInputError);
    expect(error).toMatchObject({ option: "cuts", index: 1 });
  });
});
