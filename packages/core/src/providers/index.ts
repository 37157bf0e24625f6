export type { ProviderAccess } from "../http/provider-access.js";
export * from "./elevenlabs/index.js";
export * from "./fal/index.js";
export type * from "./image-provider.js";
export * from "./kling/index.js";
export {
  openaiImageProvider,
  openaiSpeechProvider,
  openaiTranscriptionProvider,
  openaiVideoProvider,
} from "./openai/index.js";
export {
  isImageParam,
  referenceImageProvider,
  referenceSpeechProvider,
  referenceTranscriptionProvider,
  referenceVideoProvider,
} from "./reference/index.js";
export {
  describeProviders,
  imageProvider,
  isProviderName,
  type ProviderEntry,
  type ProviderModality,
  type ProviderName,
  providerAccess,
  providerModalities,
  providerNames,
  providers,
  speechProvider,
  transcriptionProvider,
  videoProvider,
} from "./registry.js";
export * from "./replicate/index.js";
export type * from "./speech-provider.js";
export type * from "./transcription-provider.js";
export type * from "./video-provider.js";
