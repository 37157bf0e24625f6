import { writeFile } from "node:fs/promises";
import path from "node:path";
import { CaptionsInputError } from "../errors/captions-input-error.js";
import { MediaError } from "../errors/media-error.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { resolveTools } from "../process/run-ffmpeg.js";
import { withTempOutput } from "../process/temp-output.js";
import { assDocument } from "./ass-document.js";
import { burnAssScript, distinctFamilies } from "./burn-ass-script.js";
import { type CaptionCue, validateCues } from "./caption-cue.js";
import { bundledCaptionFontFiles, loadCaptionFont } from "./caption-fonts.js";
import { type CaptionStyle, resolveCaptionStyle } from "./caption-style.js";
import { formatSrt } from "./format-srt.js";
import { readSrtFile } from "./parse-srt.js";

/** Options of {@link burnCaptions}. */
export interface BurnCaptionsOptions extends MediaOptions {
  /** Destination video (MP4, MOV or MKV). */
  output: string;
  /** The captions, e.g. from `captionCues`; or give `srtFile`. */
  cues?: readonly CaptionCue[];
  /** An SRT file (UTF-8) to burn instead of `cues`. */
  srtFile?: string;
  /** How the captions look. */
  style?: CaptionStyle;
  /**
   * Also write the captions as SRT (wrapped as burnt): a path, or `true` for the output's
   * name with `.srt` beside it.
   */
  srtOutput?: string | boolean;
  /**
   * Font files (.ttf, .otf, .ttc) tried before the bundled ones for each character, e.g. a
   * Korean or Devanagari font; the first one that has a character draws it.
   */
  fonts?: readonly string[];
}

/** What {@link burnCaptions} did. */
export interface BurnCaptionsResult {
  output: string;
  info: MediaInfo;
  /** The SRT written beside the video, when asked for. */
  srtOutput?: string;
  /** The cues burnt in. */
  cues: CaptionCue[];
  /**
   * Characters (grapheme clusters) that no font has: left out of the picture (never drawn as
   * boxes), kept in the SRT. Empty when everything was drawn.
   */
  missing: string[];
}

/**
 * Burn captions into a video with a style (size, colour, outline, position, margin, line
 * length), through libass. Each character is drawn with the first font that has it: the
 * given `fonts`, then DejaVu Sans, Noto Emoji (monochrome) and Noto Sans S Chinese (Chinese
 * and Japanese), all shipped in npm packages, so no system font is needed. Audio is copied.
 *
 * @example
 * const cues = captionCues({ texts: ["Dawn", "日本語の字幕", "🎬 The end"], durations: [4, 4, 4] });
 * await burnCaptions("final.mp4", {
 *   output: "final-captioned.mp4",
 *   cues,
 *   style: { fontSize: 40, color: "#ffd500", outlineWidth: 3, position: "bottom", maxLineLength: 32 },
 *   srtOutput: true, // final-captioned.srt
 * });
 */
export async function burnCaptions(
  input: string,
  options: BurnCaptionsOptions,
): Promise<BurnCaptionsResult> {
  if ((options.cues === undefined) === (options.srtFile === undefined)) {
    throw new CaptionsInputError("cues", "Give either `cues` or `srtFile` (one of them)");
  }
  const cues = options.cues ? [...options.cues] : await readSrtFile(options.srtFile as string);
  validateCues(cues);
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["subtitles", "libx264"]);
  const source = path.resolve(input);
  const info = await probe(source, { tools, signal: options.signal });
  if (!info.hasVideo) {
    throw new MediaError(`${source} has no video stream to burn captions into`, {
      code: "invalid_input",
    });
  }
  const style = resolveCaptionStyle(options.style ?? {}, info.height);
  const fontFiles = [...(options.fonts ?? []), ...bundledCaptionFontFiles()];
  const fonts = distinctFamilies(await Promise.all(fontFiles.map((file) => loadCaptionFont(file))));
  const { text, missing } = assDocument({
    cues,
    style,
    fonts,
    width: info.width,
    height: info.height,
  });
  const destination = path.resolve(options.output);
  const result = await burnAssScript(
    { tools, source, info, script: text, fonts, output: destination },
    options,
  );
  let srtOutput: string | undefined;
  if (options.srtOutput) {
    srtOutput = path.resolve(
      typeof options.srtOutput === "string"
        ? options.srtOutput
        : destination.slice(0, destination.length - path.extname(destination).length) + ".srt",
    );
    const srt = formatSrt(cues, { maxLineLength: style.maxLineLength });
    await withTempOutput(srtOutput, (temp) => writeFile(temp, srt, "utf8"));
  }
  return { ...result, ...(srtOutput ? { srtOutput } : {}), cues, missing };
}
