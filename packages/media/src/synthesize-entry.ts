// @reelsmith/media/synthesize: clips and stills drawn from text with ffmpeg alone, for the
// simulator and for tests that need real media without a service.
// @example import { synthesizeClip } from "@reelsmith/media/synthesize";
export {
  type ClipMotion,
  type ClipVideoGraphOptions,
  clipVideoGraph,
  clipZoom,
  type SynthesizeClipOptions,
  synthesizeClip,
} from "./synthesize/index.js";
