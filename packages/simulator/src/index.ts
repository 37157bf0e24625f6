export {
  type ChatModelInfo,
  chatModels,
  type ImageModelInfo,
  imageModels,
  openaiVoices,
  type SpeechModelInfo,
  speechModels,
  type TranscriptionModelInfo,
  transcriptionModels,
  type VideoModelCatalog,
  type VideoModelLimits,
  type VideoModelSpec,
  videoModels,
} from "./catalog/index.js";
export type { ReplyStyle } from "./chat/generate-reply.js";
export { type ErrorBody, FaultSpecError, HttpError, SimulatorError } from "./errors/index.js";
export {
  type FaultKind,
  type FaultRule,
  type FaultSpec,
  type FaultTarget,
  parseFaultSpec,
} from "./faults/index.js";
export type { Logger } from "./server/logger.js";
export { type Simulator, type SimulatorOptions, startSimulator } from "./server/start-simulator.js";
export type { SimulatorStats } from "./stats/simulator-stats.js";
export { videoCredits } from "./videos/credits.js";
export type { ReceivedFile, ReceivedVideoRequest } from "./videos/received-video-request.js";
export { failWord } from "./videos/video-service.js";
