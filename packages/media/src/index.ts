// @reelsmith/media: every ffmpeg call of reelsmith, each a function that takes files and
// options and returns what it made (never prints): probe, join (with transitions), fit,
// trim, reframe, set audio, subtitles, captions (cues, SRT, burned, word by word), frames,
// thumbnails and contact sheets, a film's audio mix, and the ffmpeg it runs. Named subpaths:
// `@reelsmith/media/errors` (every error class), `@reelsmith/media/captions` (a caption's
// cues and word pages, before burning), `@reelsmith/media/synthesize` (clips and stills drawn
// from text, for simulators and tests).

// Captions.
export {
  type BurnCaptionsOptions,
  type BurnCaptionsResult,
  burnCaptions,
  burnWordCaptions,
  type CaptionCue,
  type CaptionStyle,
  type FormatSrtOptions,
  formatSrt,
  parseSrt,
  readSrtFile,
  type WordCaptionMode,
  type WordCaptionPreset,
  type WordCaptionsOptions,
  type WordTiming,
} from "./captions/index.js";
// Join, edit and mix.
export {
  type ConcatOptions,
  type ConcatPlanned,
  type ConcatResult,
  concat,
  type JoinMethod,
  type Transition,
} from "./concat/index.js";
export {
  type FitClipToDurationOptions,
  type FitClipToDurationResult,
  type FitDurationMode,
  type FitOptions,
  fit,
  fitClipToDuration,
  type ReframeMode,
  type ReframeOptions,
  reframe,
  type SetAudioOptions,
  type SubtitlesOptions,
  setAudio,
  subtitles,
  type TrimOptions,
  trim,
} from "./edit/index.js";
// The error base: every media error is one (the classes are in `@reelsmith/media/errors`).
export { MediaError } from "./errors/media-error.js";
export type { FitMode } from "./filters/index.js";
// Frames and clips.
export {
  type ContactSheetOptions,
  contactSheet,
  type ExtractedFrame,
  type ExtractFrameOptions,
  extractFrame,
  type ThumbnailOptions,
  thumbnail,
} from "./frames/index.js";
// Locate ffmpeg and probe media.
export {
  type BinaryInfo,
  type BinarySource,
  bundledBinaries,
  type FfmpegCapabilities,
  type FfmpegTools,
  ffmpegToolsAt,
  locateFfmpeg,
} from "./locate/index.js";
export {
  type DuckSettings,
  type FilmSound,
  type FilmSoundParts,
  type Loudness,
  type LoudnessTarget,
  type MixFilmAudioOptions,
  type MixFilmAudioResult,
  type MixFilmSoundOptions,
  measureLoudness,
  mixFilmAudio,
  mixFilmSound,
  type NarrationPlacement,
} from "./mix/index.js";
export type { MediaOptions } from "./options.js";
export {
  type KnownProbe,
  type MediaInfo,
  probe,
  probeKnown,
  probeUnlessKnown,
} from "./probe/index.js";
export type { MediaProgress, ProgressListener } from "./process/progress.js";
