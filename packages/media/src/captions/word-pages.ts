import stringWidth from "string-width";
import type { WordTiming } from "./word-timing.js";

/** A word placed on a page: its line and what goes before it. */
export interface PagedWord extends WordTiming {
  /** Its line on the page (0-based). */
  line: number;
  /** What separates it from the word before it on its line: a space, or nothing. */
  separator: "" | " ";
}

/** Words shown together, from the first one's start to `end`. */
export interface WordPage {
  words: PagedWord[];
  start: number;
  end: number;
}

/** How words are grouped into pages. */
export interface WordPageLimits {
  /** Columns per line (a CJK character counts two). */
  maxLineLength: number;
  /** Lines per page. */
  maxLines: number;
  /** Words per page (Infinity for no limit). */
  maxWords: number;
  /** A pause longer than this (seconds) between two words starts a new page. */
  maxPause: number;
  /** Seconds a page stays after its last word ends, unless the next page starts sooner. */
  linger: number;
}

/** Scripts written without spaces between words. */
const unspaced =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}。、，！？：；）」』]/u;
const unspacedStart =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}。、，！？：；）」』]/u;

/**
 * The separator between two words: none where both sides are of a script written without
 * spaces (Chinese, Japanese, Thai…) or the second starts with its closing punctuation.
 *
 * @example
 * wordSeparator("日本", "語"); // ""
 * wordSeparator("Café", "déjà"); // " "
 */
export function wordSeparator(before: string, after: string): "" | " " {
  const last = [...before].pop() ?? "";
  return unspaced.test(last) && unspacedStart.test(after) ? "" : " ";
}

/** Sentence-ending marks, then any closing quotes or brackets: `storm.` `"Run!"` `(yes?)` `終わり。` */
const sentenceEnd = /[.!?…。！？‼⁇⁈⁉]["'”’»›)\]）」』]*$/u;
/** Words whose full stop marks an abbreviation or an initial, not a sentence's end. */
const abbreviation = /^(?:\p{L}|mr|mrs|ms|dr|st|mt|jr|sr|vs|etc|e\.g|i\.e|no|fig|approx|ca)\.$/iu;

/**
 * Whether a word, as written, ends a sentence: it ends with `.` `!` `?` `…` (or a script's
 * own full stop), perhaps inside closing quotes; an initial (`J.`) or a common abbreviation
 * (`Mr.`, `e.g.`) does not.
 *
 * @example
 * endsSentence("storm."); // true
 * endsSentence("\"Run!\""); // true
 * endsSentence("Mr."); // false
 */
export function endsSentence(word: string): boolean {
  return sentenceEnd.test(word) && !abbreviation.test(word);
}

/** The index of the stretch between cuts a moment falls in: 0 before the first cut. */
function shotOf(seconds: number, cuts: readonly number[]): number {
  let shot = 0;
  while (shot < cuts.length && seconds >= (cuts[shot] ?? Number.POSITIVE_INFINITY)) shot++;
  return shot;
}

/**
 * Group timed words into pages of at most `maxLines` lines of `maxLineLength` columns and
 * `maxWords` words, as subtitles are: a page ends at a sentence's end, at a long pause, and
 * at a cut (`cuts`, seconds where the picture changes clip: a page never holds words said on
 * both sides of one). Each page lasts from its first word's start until `linger` after its
 * last word's end, or sooner: the next page's start, or the next cut (once its last word
 * is said).
 *
 * @example
 * wordPages(words, { maxLineLength: 16, maxLines: 2, maxWords: 3, maxPause: 1, linger: 0.5 }, [4.2]);
 * // [{ start: 0.2, end: 1.4, words: [{ word: "The", line: 0, separator: " ", … }, …] }, …]
 */
export function wordPages(
  words: readonly WordTiming[],
  limits: WordPageLimits,
  cuts: readonly number[] = [],
): WordPage[] {
  const sortedCuts = [...cuts].sort((a, b) => a - b);
  const pages: WordPage[] = [];
  let page: PagedWord[] = [];
  let lineText = "";
  const close = () => {
    if (page.length > 0) pages.push({ words: page, start: page[0]?.start ?? 0, end: 0 });
    page = [];
    lineText = "";
  };
  for (const entry of words) {
    const word = entry.word.trim();
    const previous = page[page.length - 1];
    if (
      previous &&
      (page.length >= limits.maxWords ||
        entry.start - previous.end > limits.maxPause ||
        endsSentence(previous.word) ||
        shotOf(entry.start, sortedCuts) !== shotOf(previous.start, sortedCuts))
    ) {
      close();
    }
    const last = page[page.length - 1];
    if (!last) {
      page.push({ ...entry, word, line: 0, separator: "" });
      lineText = word;
      continue;
    }
    const separator = wordSeparator(last.word, word);
    if (stringWidth(lineText + separator + word) <= limits.maxLineLength) {
      page.push({ ...entry, word, line: last.line, separator });
      lineText += separator + word;
      continue;
    }
    if (last.line + 1 >= limits.maxLines) {
      close();
      page.push({ ...entry, word, line: 0, separator: "" });
    } else {
      page.push({ ...entry, word, line: last.line + 1, separator: "" });
    }
    lineText = word;
  }
  close();
  pages.forEach((current, index) => {
    const lastEnd = Math.max(...current.words.map((word) => word.end));
    const lastStart = current.words[current.words.length - 1]?.start ?? current.start;
    const next = pages[index + 1]?.start ?? Number.POSITIVE_INFINITY;
    const cut = sortedCuts[shotOf(current.start, sortedCuts)] ?? Number.POSITIVE_INFINITY;
    // Never on screen with the next page, nor lingering over a cut once its words are said;
    // never shorter than its last word's first moment.
    const lingered = Math.min(lastEnd + limits.linger, Math.max(cut, lastEnd));
    current.end = Math.max(lastStart + 0.01, Math.min(next, lingered));
  });
  return pages;
}
