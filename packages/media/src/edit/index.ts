export { type FitOptions, fit } from "./fit.js";
export {
  type FitClipToDurationOptions,
  type FitClipToDurationResult,
  type FitDurationMode,
  fitClipToDuration,
} from "./fit-clip-to-duration.js";
export { type ReframeOptions, reframe } from "./reframe.js";
export { type ReframeMode, reframeFilter } from "./reframe-graph.js";
export { type SetAudioOptions, setAudio } from "./set-audio.js";
export { type SubtitlesOptions, subtitles } from "./subtitles.js";
export { type TrimOptions, trim } from "./trim.js";
