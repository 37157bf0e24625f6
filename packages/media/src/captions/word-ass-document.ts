import { assDialogue, assFontText, assScript } from "./ass-document.js";
import type { CaptionFont } from "./caption-fonts.js";
import { assColour, type ResolvedCaptionStyle } from "./caption-style.js";
import type { WordPage } from "./word-pages.js";

/** How words are shown as they are spoken. */
export type WordCaptionMode = "highlight" | "pop";

/** What {@link wordAssDocument} needs. */
export interface WordAssDocumentInput {
  pages: readonly WordPage[];
  /** `highlight`: the page stays, the word being spoken in `highlightColor`. `pop`: words appear as spoken. */
  mode: WordCaptionMode;
  style: ResolvedCaptionStyle;
  /** CSS colour of the word being spoken (`highlight`). */
  highlightColor: string;
  /** Fonts in the order they are tried for each character; the first is the style's. */
  fonts: readonly CaptionFont[];
  width: number;
  height: number;
}

/**
 * An ASS script of word-timed captions: one event per word, from its start to the next
 * word's (the last: its page's end), each showing its whole page laid out as it will stay.
 * `highlight` draws the word being spoken in another colour (`{\c}`); `pop` draws the
 * words not yet spoken fully transparent (`{\alpha&HFF&}`), so words appear in place
 * without the line moving. Characters go to the first font that has them, as in
 * {@link assDocument}; libass wraps nothing itself (lines break where the pages say).
 *
 * @example
 * const pages = wordPages(words, layout.limits);
 * const { text } = wordAssDocument({ pages, mode: "highlight", style, highlightColor: "#ffd500", fonts, width: 1080, height: 1920 });
 */
export function wordAssDocument(input: WordAssDocumentInput): { text: string; missing: string[] } {
  const base = input.fonts[0];
  if (!base) throw new TypeError("Expected at least one font");
  const highlight = overrideColour(assColour(input.highlightColor, "highlightColor"));
  const normal = overrideColour(input.style.primaryColour);
  const missing = new Set<string>();
  const events: string[] = [];
  for (const page of input.pages) {
    page.words.forEach((current, index) => {
      const next = page.words[index + 1];
      const end = next ? next.start : page.end;
      if (end <= current.start) return;
      const state = { font: 0 };
      let body = "";
      page.words.forEach((word, position) => {
        const breakBefore = position > 0 && word.line !== page.words[position - 1]?.line;
        body += breakBefore ? "\\N" : word.separator;
        if (input.mode === "pop" && position === index + 1) body += "{\\alpha&HFF&}";
        const text = assFontText(word.word, input.fonts, missing, state);
        body +=
          input.mode === "highlight" && position === index
            ? `{\\c${highlight}}${text}{\\c${normal}}`
            : text;
      });
      events.push(assDialogue(current.start, end, body));
    });
  }
  const text = assScript({
    width: input.width,
    height: input.height,
    style: input.style,
    family: base.family,
    events,
    wrapStyle: 2,
  });
  return { text, missing: [...missing] };
}

/** `&HAABBGGRR` as an override tag's colour, `&HBBGGRR&`. */
function overrideColour(colour: string): string {
  return `&H${colour.slice(4)}&`;
}
