import LineBreaker from "linebreak";
import stringWidth from "string-width";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Default of {@link wrapCaption}'s `maxLineLength`: the usual 42 columns of a subtitle line. */
export const defaultMaxLineLength = 42;

/**
 * Wrap a caption into lines of at most `maxLineLength` columns, where a wide character (CJK,
 * most emoji) takes two columns and a combining accent none (as a terminal counts them).
 * Lines break where Unicode line breaking (UAX #14) allows: at spaces, between CJK
 * characters but not before closing punctuation such as `。` or `、`. A word longer than a
 * line is cut between grapheme clusters, so an accent or an emoji sequence is never split.
 * Line breaks in the text are kept; runs of spaces become one.
 *
 * @example
 * wrapCaption("A lighthouse keeper at dawn, watching the storm", 20);
 * // ["A lighthouse keeper", "at dawn, watching", "the storm"]
 * wrapCaption("日本語の字幕です。", 8); // ["日本語の", "字幕で", "す。"] (。 never starts a line)
 */
export function wrapCaption(text: string, maxLineLength = defaultMaxLineLength): string[] {
  if (!(Number.isInteger(maxLineLength) && maxLineLength >= 1)) {
    throw new TypeError(
      `Expected \`maxLineLength\` to be a whole number of columns from 1; got ${maxLineLength}`,
    );
  }
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    const clean = paragraph.replace(/[\t\f\v ]+/g, " ").trim();
    if (clean) lines.push(...wrapParagraph(clean, maxLineLength));
  }
  return lines;
}

function wrapParagraph(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = "";
  const breaker = new LineBreaker(text);
  let last = 0;
  for (let found = breaker.nextBreak(); found; found = breaker.nextBreak()) {
    const segment = text.slice(last, found.position);
    last = found.position;
    if (stringWidth((line + segment).trimEnd()) <= max) {
      line += segment;
      continue;
    }
    if (line.trim()) lines.push(line.trimEnd());
    line = "";
    if (stringWidth(segment.trimEnd()) <= max) {
      line = segment;
      continue;
    }
    // A word wider than a line: cut it between grapheme clusters.
    for (const { segment: cluster } of graphemes.segment(segment.trimEnd())) {
      if (line && stringWidth(line + cluster) > max) {
        lines.push(line);
        line = "";
      }
      line += cluster;
    }
    if (segment.endsWith(" ")) line += " ";
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}
