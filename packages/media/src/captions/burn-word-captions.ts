import path from "node:path";
import { CaptionsInputError } from "../errors/captions-input-error.js";
import { MediaError } from "../errors/media-error.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { burnAssScript, distinctFamilies } from "./burn-ass-script.js";
import { bundledCaptionFontFiles, type CaptionFont, loadCaptionFont } from "./caption-fonts.js";
import { type CaptionStyle, resolveCaptionStyle } from "./caption-style.js";
import {
  type WordAssDocumentInput,
  type WordCaptionMode,
  wordAssDocument,
} from "./word-ass-document.js";
import { type WordCaptionPreset, wordCaptionLayout } from "./word-caption-preset.js";
import { type WordPage, wordPages } from "./word-pages.js";
import { validateWords, type WordTiming } from "./word-timing.js";

/** Options of {@link wordCaptionsScript} and {@link burnWordCaptions}. */
export interface WordCaptionsOptions {
  /** Each spoken word with its start and end on the video's timeline (seconds). */
  words: readonly WordTiming[];
  /** `highlight` (default): the line stays and the word being spoken changes colour. `pop`: words appear as spoken. */
  mode?: WordCaptionMode;
  /** `social` (default): big bold words in the middle. `subtitle`: bottom lines, two at most. */
  preset?: WordCaptionPreset;
  /** Overrides of the preset's look (size, colour, outline, position, margin, line length, bold). */
  style?: CaptionStyle;
  /** Colour of the word being spoken (default `#ffd500`). */
  highlightColor?: string;
  /** Font files tried before the bundled ones for each character (see `burnCaptions`). */
  fonts?: readonly string[];
  /**
   * Where the picture changes from one clip to the next (seconds on the video's timeline):
   * no page holds words said on both sides of a cut, and a page leaves at the cut once its
   * words are said. A joined film's clip starts after the first.
   */
  cuts?: readonly number[];
}

/** An ASS script of word captions, with how its words were grouped. */
export interface WordCaptionsScript {
  text: string;
  pages: WordPage[];
  /** The fonts the script names, in the order they are tried. */
  fonts: CaptionFont[];
  /** Characters no font has (left out of the picture). */
  missing: string[];
}

/**
 * The ASS script {@link burnWordCaptions} burns, for a `width`×`height` video: words grouped
 * into pages by the preset, one event per word.
 *
 * @example
 * const { text, pages } = await wordCaptionsScript({ words, mode: "pop", preset: "subtitle" }, 1280, 720);
 */
export async function wordCaptionsScript(
  options: WordCaptionsOptions,
  width: number,
  height: number,
): Promise<WordCaptionsScript> {
  validateWords(options.words);
  const mode = options.mode ?? "highlight";
  if (mode !== "highlight" && mode !== "pop")
    throw new TypeError(`Expected \`mode\` to be highlight or pop; got ${JSON.stringify(mode)}`);
  const layout = wordCaptionLayout(options.preset ?? "social", width, height);
  const style = resolveCaptionStyle({ ...layout.style, ...(options.style ?? {}) }, height);
  const cuts = validateCuts(options.cuts);
  const pages = wordPages(
    options.words,
    { ...layout.limits, maxLineLength: style.maxLineLength },
    cuts,
  );
  const fontFiles = [...(options.fonts ?? []), ...bundledCaptionFontFiles()];
  const fonts = distinctFamilies(await Promise.all(fontFiles.map((file) => loadCaptionFont(file))));
  const input: WordAssDocumentInput = {
    pages,
    mode,
    style,
    highlightColor: options.highlightColor ?? layout.highlightColor,
    fonts,
    width,
    height,
  };
  return { ...wordAssDocument(input), pages, fonts };
}

/** `cuts` checked: finite seconds from 0. */
function validateCuts(cuts: readonly number[] | undefined): readonly number[] {
  if (cuts === undefined) return [];
  if (!Array.isArray(cuts)) {
    throw new CaptionsInputError("cuts", "Expected `cuts` to be a list of seconds");
  }
  cuts.forEach((cut, index) => {
    if (!(typeof cut === "number" && Number.isFinite(cut) && cut >= 0)) {
      throw new CaptionsInputError(
        "cuts",
        `Expected \`cuts[${index}]\` to be a number of seconds from 0; got ${JSON.stringify(cut)}`,
        index,
      );
    }
  });
  return cuts;
}

/**
 * Burn word-timed captions into a video: the narration's words shown as they are spoken,
 * the current one highlighted (`highlight`) or each appearing in place (`pop`), in a
 * `social` or `subtitle` preset, in any script the fonts cover (the bundled fonts draw
 * Latin, Greek, Cyrillic, Arabic, Hebrew, Chinese, Japanese kana and emoji). Sound is copied.
 *
 * @example
 * await burnWordCaptions("final.mp4", {
 *   output: "final-words.mp4",
 *   words: [{ word: "The", start: 0.2, end: 0.4 }, { word: "keeper", start: 0.45, end: 0.9 }],
 *   mode: "highlight",
 *   preset: "social",
 * });
 */
export async function burnWordCaptions(
  input: string,
  options: WordCaptionsOptions & MediaOptions & { output: string },
): Promise<{ output: string; info: MediaInfo; pages: WordPage[]; missing: string[] }> {
  validateWords(options.words);
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["subtitles", "libx264"]);
  const source = path.resolve(input);
  const info = await probe(source, { tools, signal: options.signal });
  if (!info.hasVideo) {
    throw new MediaError(`${source} has no video stream to burn captions into`, {
      code: "invalid_input",
    });
  }
  const script = await wordCaptionsScript(options, info.width, info.height);
  const result = await burnAssScript(
    { tools, source, info, script: script.text, fonts: script.fonts, output: options.output },
    options,
  );
  return { ...result, pages: script.pages, missing: script.missing };
}
