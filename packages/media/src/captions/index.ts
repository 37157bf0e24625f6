export {
  type BurnCaptionsOptions,
  type BurnCaptionsResult,
  burnCaptions,
} from "./burn-captions.js";
export {
  burnWordCaptions,
  type WordCaptionsOptions,
  type WordCaptionsScript,
  wordCaptionsScript,
} from "./burn-word-captions.js";
export type { CaptionCue } from "./caption-cue.js";
export { type CaptionCuesInput, captionCues } from "./caption-cues.js";
export { bundledCaptionFontFiles } from "./caption-fonts.js";
export { assColour, type CaptionStyle } from "./caption-style.js";
export { clipDurations } from "./clip-durations.js";
export { type FormatSrtOptions, formatSrt } from "./format-srt.js";
export { parseSrt, readSrtFile } from "./parse-srt.js";
export { formatSrtTime, parseSrtTime } from "./srt-time.js";
export type { WordCaptionMode } from "./word-ass-document.js";
export { type WordCaptionPreset, wordCaptionLayout } from "./word-caption-preset.js";
export {
  endsSentence,
  type PagedWord,
  type WordPage,
  wordPages,
  wordSeparator,
} from "./word-pages.js";
export type { WordTiming } from "./word-timing.js";
export { defaultMaxLineLength, wrapCaption } from "./wrap-caption.js";
