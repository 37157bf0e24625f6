export * from "./fal/index.js";
export * from "./kling/index.js";
export { openaiVideoProvider } from "./openai/index.js";
export { isImageParam, referenceVideoProvider } from "./reference/index.js";
export {
  describeProviders,
  isProviderName,
  type ProviderName,
  providerNames,
  providers,
  videoProvider,
} from "./registry.js";
export * from "./replicate/index.js";
export type * from "./video-provider.js";
