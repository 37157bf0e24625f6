export type {
  ReplicatePrediction,
  ReplicatePredictionPage,
  ReplicateStatus,
} from "./replicate-api-types.js";
export { replicateAspectRatio, replicateImageProvider } from "./replicate-image.js";
export { type ReplicateModelRef, replicateModel } from "./replicate-model.js";
export { predictionAsJob, replicateVideoProvider } from "./replicate-video.js";
export {
  type ReplicateVideoFamily,
  replicateSizeFields,
  replicateVideoFamilies,
  replicateVideoFamily,
  replicateVideoInput,
  replicateVideoProblems,
} from "./replicate-video-input.js";
