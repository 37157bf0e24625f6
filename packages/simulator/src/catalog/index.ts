export { type ChatModelInfo, chatModels, findChatModel, modelsCreated } from "./chat-models.js";
export {
  type ImageModelInfo,
  imageModels,
  openaiVoices,
  type SpeechModelInfo,
  speechFormats,
  speechModels,
  type TranscriptionModelInfo,
  transcriptionModels,
} from "./media-models.js";
export { catalogFromProfile, defaultCatalog, type ServiceCatalog } from "./service-catalog.js";
export type { VideoModelCatalog, VideoModelLimits, VideoModelSpec } from "./video-model-limits.js";
export { findVideoModel, videoModels, videoSpeedFactors } from "./video-models.js";
