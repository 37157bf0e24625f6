/**
 * @reelsmith/simulator/catalog: the chat, video, image, speech and transcription models the simulator
 * serves when it is given no profile, without the server (no HTTP, no ffmpeg). For a checker that validates a pipeline
 * offline for a run on the built-in simulator.
 *
 * @example
 * ```ts
 * import { videoModels } from "@reelsmith/simulator/catalog";
 * videoModels.map((model) => model.id); // ["reel-video-1", "reel-video-2-lite", "reel-video-3-long"]
 * runPipeline("pipeline.yaml", { catalogs: modelCatalogs }); // every catalog, by profile section
 * ```
 */

export { type ChatModelInfo, chatModels } from "./catalog/chat-models.js";
export {
  type ImageModelInfo,
  imageModels,
  mediaCatalogs,
  openaiVoices,
  type SpeechModelInfo,
  speechModels,
  type TranscriptionModelInfo,
  transcriptionModels,
} from "./catalog/media-models.js";
export { modelCatalogs } from "./catalog/model-catalogs.js";
export type {
  VideoModelCatalog,
  VideoModelLimits,
  VideoModelSpec,
} from "./catalog/video-model-limits.js";
export { videoModels } from "./catalog/video-models.js";
