import type { CaptionCue } from "./caption-cue.js";
import type { CaptionFont } from "./caption-fonts.js";
import type { ResolvedCaptionStyle } from "./caption-style.js";
import { fontRuns } from "./font-runs.js";
import { wrapCaption } from "./wrap-caption.js";

/** What {@link assDocument} needs. */
export interface AssDocumentInput {
  cues: readonly CaptionCue[];
  style: ResolvedCaptionStyle;
  /** Fonts in the order they are tried for each character; the first is the style's. */
  fonts: readonly CaptionFont[];
  /** The video's size: the script's coordinates are its pixels. */
  width: number;
  height: number;
}

/**
 * An ASS subtitle script drawing `cues` with `style`: one style, the video's pixels as
 * coordinates, text wrapped to the style's line length, each character in the first font
 * that has it (`{\fn…}` switches), characters no font has left out and listed in
 * `missing`. SRT tags (`<i>`, `<b>`, `<u>`, `<font>`) are removed; `{`, `}` and `\` in the
 * text are drawn as themselves.
 *
 * @example
 * const { text, missing } = assDocument({ cues, style: resolveCaptionStyle({}, 720), fonts, width: 1280, height: 720 });
 */
export function assDocument(input: AssDocumentInput): { text: string; missing: string[] } {
  const { style, fonts } = input;
  const base = fonts[0];
  if (!base) throw new TypeError("Expected at least one font");
  const missing = new Set<string>();
  const events: string[] = [];
  for (const cue of input.cues) {
    const plain = cue.text.replace(/<\/?(?:i|b|u|font)(?:\s[^>]*)?>/gi, "");
    const lines = wrapCaption(plain, style.maxLineLength);
    if (lines.length === 0) continue;
    const state = { font: 0 };
    const body = lines.map((line) => assFontText(line, fonts, missing, state)).join("\\N");
    events.push(assDialogue(cue.start, cue.end, body));
  }
  const text = assScript({
    width: input.width,
    height: input.height,
    style,
    family: base.family,
    events,
  });
  return { text, missing: [...missing] };
}

/**
 * Text as ASS draws it with `fonts`: each character in the first font that has it, with a
 * `{\fn…}` switch where the font changes from `state.font` (updated, so several pieces of
 * one event share it); characters no font has are left out and added to `missing`.
 *
 * @example
 * const state = { font: 0 };
 * assFontText("Café 日本", fonts, new Set(), state); // "Café {\fnNoto Sans SC}日本"
 */
export function assFontText(
  text: string,
  fonts: readonly CaptionFont[],
  missing: Set<string>,
  state: { font: number },
): string {
  const { runs, missing: absent } = fontRuns(text, fonts);
  for (const cluster of absent) missing.add(cluster);
  return runs
    .map((run) => {
      const change = run.font === state.font ? "" : `{\\fn${fonts[run.font]?.family}}`;
      state.font = run.font;
      return change + escapeAssText(run.text);
    })
    .join("");
}

/**
 * One `Dialogue:` line of the `Caption` style.
 *
 * @example
 * assDialogue(1.5, 2, "Dawn"); // "Dialogue: 0,0:00:01.50,0:00:02.00,Caption,,0,0,0,,Dawn"
 */
export function assDialogue(start: number, end: number, body: string): string {
  return `Dialogue: 0,${assTime(start)},${assTime(end)},Caption,,0,0,0,,${body}`;
}

/** What {@link assScript} writes. */
export interface AssScriptInput {
  width: number;
  height: number;
  style: ResolvedCaptionStyle;
  /** The font family the `Caption` style names (the first font's). */
  family: string;
  events: readonly string[];
  /** libass's line wrapping: 0 (default) wraps long lines smartly, 2 only breaks at `\N`. */
  wrapStyle?: 0 | 2;
}

/**
 * A whole ASS script: the video's pixels as coordinates, one `Caption` style, the events.
 *
 * @example
 * assScript({ width: 1280, height: 720, style, family: "DejaVu Sans", events: [assDialogue(0, 2, "Dawn")] });
 */
export function assScript(input: AssScriptInput): string {
  const { style } = input;
  const styleLine = [
    "Caption",
    input.family,
    round(style.fontSize),
    style.primaryColour,
    style.primaryColour,
    style.outlineColour,
    "&H00000000",
    style.bold ? -1 : 0,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    1,
    round(style.outlineWidth),
    0,
    style.alignment,
    Math.round(style.marginHorizontal),
    Math.round(style.marginHorizontal),
    Math.round(style.marginVertical),
    1,
  ].join(",");
  return [
    "[Script Info]",
    "ScriptType: v4.00+",
    `PlayResX: ${input.width}`,
    `PlayResY: ${input.height}`,
    `WrapStyle: ${input.wrapStyle ?? 0}`,
    "ScaledBorderAndShadow: yes",
    "",
    "[V4+ Styles]",
    "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
    `Style: ${styleLine}`,
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ...input.events,
    "",
  ].join("\n");
}

/**
 * Seconds as an ASS time, `H:MM:SS.cc` (rounded to the centisecond, ASS's resolution).
 *
 * @example
 * assTime(3723.456); // "1:02:03.46"
 */
export function assTime(seconds: number): string {
  const total = Math.round(Math.max(0, seconds) * 100);
  const centiseconds = total % 100;
  const whole = Math.floor(total / 100);
  const two = (value: number) => String(value).padStart(2, "0");
  return `${Math.floor(whole / 3600)}:${two(Math.floor(whole / 60) % 60)}:${two(whole % 60)}.${two(centiseconds)}`;
}

/** Text as ASS draws it literally: `{` `}` escaped, a word joiner after each `\`. */
function escapeAssText(text: string): string {
  return text.replace(/[{}\\]/g, (character) =>
    character === "\\" ? "\\\u2060" : `\\${character}`,
  );
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
