export { FfmpegError } from "./ffmpeg-error.js";
export { FfmpegNotFoundError } from "./ffmpeg-not-found-error.js";
export { FfmpegStalledError } from "./ffmpeg-stalled-error.js";
export { MediaAbortError } from "./media-abort-error.js";
export { MediaError } from "./media-error.js";
export { MediaVerificationError } from "./media-verification-error.js";
export { UnsupportedCapabilityError } from "./unsupported-capability-error.js";
