export { type ChatModelInfo, chatModels, findChatModel, modelsCreated } from "./chat-models.js";
export type { VideoModelCatalog, VideoModelLimits } from "./video-model-limits.js";
export { findVideoModel, videoModels, videoSpeedFactors } from "./video-models.js";
