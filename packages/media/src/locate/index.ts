export { type BinarySource, bundledBinaries } from "./binary-candidates.js";
export { bundledFontFile } from "./font-file.js";
export {
  type BinaryInfo,
  type FfmpegCapabilities,
  type FfmpegTools,
  ffmpegToolsAt,
  locateFfmpeg,
} from "./locate-ffmpeg.js";
export { requireCapabilities } from "./require-capability.js";
