// @reelsmith/media/captions: a caption's cues, clip durations and word pages, computed before
// anything is burned (what `burnCaptions` and `burnWordCaptions` draw).
// @example import { captionCues } from "@reelsmith/media/captions";
export {
  type CaptionCuesInput,
  captionCues,
  clipDurations,
  type WordCaptionsScript,
  wordCaptionsScript,
  wrapCaption,
} from "./captions/index.js";
