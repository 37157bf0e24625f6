import type { CaptionStyle } from "./caption-style.js";
import type { WordPageLimits } from "./word-pages.js";

/** A look for word-timed captions. */
export type WordCaptionPreset = "social" | "subtitle";

/** A preset's style and paging for one video size. */
export interface WordCaptionLayout {
  style: CaptionStyle;
  limits: WordPageLimits;
  /** The colour of the word being spoken (`highlight`). */
  highlightColor: string;
}

/**
 * What a preset looks like on a `width`×`height` video. `social`: big bold words in the
 * middle, at most three on screen, a thick outline (vertical short-video captions).
 * `subtitle`: ordinary subtitles at the bottom, two lines at most.
 *
 * @example
 * wordCaptionLayout("social", 1080, 1920);
 * // { style: { fontSize: 92, bold: true, position: "middle", … }, limits: { maxWords: 3, … }, highlightColor: "#ffd500" }
 */
export function wordCaptionLayout(
  preset: WordCaptionPreset,
  width: number,
  height: number,
): WordCaptionLayout {
  if (preset === "social") {
    const fontSize = Math.max(12, Math.round(Math.min(width, height) * 0.085));
    return {
      style: {
        fontSize,
        bold: true,
        outlineWidth: Math.max(2, Math.round(fontSize / 8)),
        position: "middle",
        maxLineLength: columns(width, fontSize, 24),
      },
      limits: { maxLineLength: 0, maxLines: 2, maxWords: 3, maxPause: 0.8, linger: 0.4 },
      highlightColor: "#ffd500",
    };
  }
  if (preset !== "subtitle") {
    throw new TypeError(
      `Expected \`preset\` to be social or subtitle; got ${JSON.stringify(preset)}`,
    );
  }
  const fontSize = Math.max(12, Math.round(height * 0.055));
  return {
    style: {
      fontSize,
      outlineWidth: Math.max(1, Math.round(fontSize / 16)),
      position: "bottom",
      maxLineLength: columns(width, fontSize, 42),
    },
    limits: {
      maxLineLength: 0,
      maxLines: 2,
      maxWords: Number.POSITIVE_INFINITY,
      maxPause: 1.2,
      linger: 0.6,
    },
    highlightColor: "#ffd500",
  };
}

/** Columns of a line: what fits in 90 % of the width (a column is about half the font size wide), at most `most`. */
function columns(width: number, fontSize: number, most: number): number {
  return Math.max(6, Math.min(most, Math.floor((width * 0.9) / (fontSize * 0.6))));
}
