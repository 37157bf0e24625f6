export type { BinarySource } from "./binary-candidates.js";
export { bundledFontFile } from "./font-file.js";
export {
  type BinaryInfo,
  type FfmpegCapabilities,
  type FfmpegTools,
  locateFfmpeg,
} from "./locate-ffmpeg.js";
export { requireCapabilities } from "./require-capability.js";
