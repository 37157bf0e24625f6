export { type SynthesizeClipOptions, synthesizeClip } from "./synthesize-clip.js";
export { wrapText } from "./wrap-text.js";
