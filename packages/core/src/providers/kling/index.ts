export type { KlingEnvelope, KlingTask, KlingTaskStatus, KlingVideo } from "./kling-api-types.js";
export { klingError } from "./kling-errors.js";
export { klingToken, splitKlingKey } from "./kling-jwt.js";
export { klingVideoProvider, parseKlingJobId } from "./kling-video.js";
export {
  type KlingAction,
  klingAction,
  klingAspectRatio,
  klingAspectRatios,
  klingDurations,
  klingVideoInput,
  klingVideoProblems,
} from "./kling-video-input.js";
