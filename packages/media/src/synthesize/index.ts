export {
  type ClipMotion,
  type ClipVideoGraphOptions,
  clipVideoGraph,
  clipZoom,
  type SynthesizeClipOptions,
  synthesizeClip,
} from "./synthesize-clip.js";
export { wrapText } from "./wrap-text.js";
