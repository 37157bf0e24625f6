import type { CaptionFont } from "./caption-fonts.js";

/** A stretch of text drawn with one font (an index into the font list). */
export interface FontRun {
  font: number;
  text: string;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Characters that draw nothing and only shape their neighbours (joiners, variation
 * selectors, emoji tags): kept when the chosen font has them, dropped otherwise, never a
 * reason to reject a font.
 */
const invisibleRanges: readonly [number, number][] = [
  [0x200b, 0x200d], // zero-width space, non-joiner, joiner
  [0x2060, 0x2060], // word joiner
  [0xfe00, 0xfe0f], // variation selectors (FE0F asks for emoji presentation)
  [0xfeff, 0xfeff], // zero-width no-break space
  [0xe0020, 0xe007f], // tags (subdivision flags)
  [0xe0100, 0xe01ef], // variation selectors supplement
];
const isInvisible = (codePoint: number) =>
  invisibleRanges.some(([first, last]) => codePoint >= first && codePoint <= last);
/** Drawn as emoji (not as a text symbol such as a plain © or ❤): emoji fonts go first. */
const emojiPresentation =
  /^(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}.*(?:\uFE0F|\u200D|\p{Emoji_Modifier})|.\uFE0F?\u20E3)/u;
/** Fonts with these are emoji fonts (DejaVu Sans has a few emoji, not these). */
const emojiProbe = [0x1f3ac, 0x1f44d, 0x1f305, 0x1f600];
const backslash = 0x5c;
const wordJoiner = 0x2060;

/**
 * Split text into runs, each drawn with the first font that has every visible character of
 * a grapheme cluster (so an accent stays with its letter and an emoji sequence stays
 * whole); a cluster shown as emoji (😀, ❤️ with its selector, 👍🏽, 1️⃣) tries emoji fonts
 * first. Clusters no font can draw are left out (with a space next to them, so no double
 * space is left) and listed in `missing` (once each).
 *
 * A backslash also needs U+2060 (word joiner) from its font: the ASS writer puts one after
 * it so that `\N`, `\h` or `\{` in the text stay literal.
 *
 * @example
 * fontRuns("Café 日本 😀", fonts);
 * // { runs: [{ font: 0, text: "Café " }, { font: 2, text: "日本" }, { font: 0, text: " " }, { font: 1, text: "😀" }], missing: [] }
 */
export function fontRuns(
  text: string,
  fonts: readonly CaptionFont[],
): { runs: FontRun[]; missing: string[] } {
  const runs: FontRun[] = [];
  const missing = new Set<string>();
  const order = fonts.map((_, index) => index);
  const emojiFirst = [
    ...order.filter((index) => emojiProbe.every((codePoint) => fonts[index]?.covers(codePoint))),
    ...order.filter((index) => !emojiProbe.every((codePoint) => fonts[index]?.covers(codePoint))),
  ];
  const append = (font: number, piece: string) => {
    const last = runs[runs.length - 1];
    if (last && last.font === font) last.text += piece;
    else runs.push({ font, text: piece });
  };
  let afterSpace = true;
  for (const { segment } of graphemes.segment(text)) {
    const space = /^\s+$/u.test(segment);
    // Leading spaces, and spaces next to a left-out character, would double up.
    if (space && afterSpace) continue;
    const codePoints = [...segment].map((character) => character.codePointAt(0) ?? 0);
    const visible = codePoints.filter((codePoint) => !isInvisible(codePoint));
    if (visible.length === 0) continue;
    if (visible.includes(backslash)) visible.push(wordJoiner);
    const fits = (font: CaptionFont | undefined) =>
      font !== undefined && visible.every((codePoint) => font.covers(codePoint));
    const candidates = emojiPresentation.test(segment) ? emojiFirst : order;
    const font = candidates.find((index) => fits(fonts[index])) ?? -1;
    if (font < 0) {
      missing.add(segment);
      continue;
    }
    const chosen = fonts[font] as CaptionFont;
    const kept = [...segment].filter((character) => {
      const codePoint = character.codePointAt(0) ?? 0;
      return !isInvisible(codePoint) || chosen.covers(codePoint);
    });
    append(font, kept.join(""));
    afterSpace = space;
  }
  const last = runs[runs.length - 1];
  if (last) {
    last.text = last.text.trimEnd();
    if (!last.text) runs.pop();
  }
  return { runs, missing: [...missing] };
}
