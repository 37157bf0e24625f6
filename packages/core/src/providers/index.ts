export * from "./elevenlabs/index.js";
export * from "./fal/index.js";
export * from "./kling/index.js";
export { openaiSpeechProvider, openaiVideoProvider } from "./openai/index.js";
export {
  isImageParam,
  referenceSpeechProvider,
  referenceVideoProvider,
} from "./reference/index.js";
export {
  describeProviders,
  isProviderName,
  type ProviderEntry,
  type ProviderName,
  providerAccess,
  providerNames,
  providers,
  speechProvider,
  videoProvider,
} from "./registry.js";
export * from "./replicate/index.js";
export type * from "./speech-provider.js";
export type * from "./video-provider.js";
