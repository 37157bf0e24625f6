/**
 * @reelsmith/core: a typed client for the media-generation and chat-completion service.
 *
 * @example
 * ```ts
 * import { createClient } from "@reelsmith/core";
 * const client = createClient();
 * const stream = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }], stream: true });
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? "");
 * ```
 */

export { Audio, type SpeechOptions, type TranscribeOptions } from "./audio/audio.js";
export type * from "./audio/audio-types.js";
export { ChatCompletionStream } from "./chat/chat-completion-stream.js";
export type { ChatJSONParams, ChatJSONResult } from "./chat/chat-json.js";
export { ChatCompletions } from "./chat/completions.js";
export type { RunnableTool, RunToolsParams, RunToolsResult } from "./chat/run-tools.js";
export type * from "./chat/types.js";
export { validateChatParams } from "./chat/validate-chat-params.js";
export { baseURLProblem, maskURLCredentials } from "./client/base-url.js";
export { normalizeBaseURL } from "./client/config.js";
export { type ChatNamespace, createClient, type ReelsmithClient } from "./client/create-client.js";
export type {
  ClientOptions,
  Logger,
  OutgoingRequest,
  RequestOptions,
} from "./client/options.js";
export {
  clientForModel,
  type RouteClientsOptions,
  routeClients,
} from "./client/routed-client.js";
export * from "./errors/index.js";
export type { FetchFunction } from "./http/fetch-request.js";
export { imagePart } from "./images/image-part.js";
export type * from "./images/image-types.js";
export { type ImageRequestOptions, Images } from "./images/images.js";
export type { FileInput } from "./media-files/file-input.js";
export {
  type Modality,
  type ModalitySection,
  modalities,
  modalitySection,
} from "./models/modalities.js";
export { Models } from "./models/models.js";
export type { Model } from "./models/types.js";
export {
  type ChatModelSpec,
  chatModelsFromProfile,
  clientOptionsFromProfile,
  type ProfileClientOptions,
  type ProfileProblem,
  type ProviderProfile,
  parseProfile,
  profileUnknowns,
  validateProfile,
  videoCatalogFromProfile,
} from "./profile/index.js";
export * from "./providers/index.js";
export type { DownloadProgress } from "./videos/download.js";
export { estimateVideoCredits } from "./videos/estimate-video-credits.js";
export { normalizeVideoJob } from "./videos/normalize-job.js";
export type * from "./videos/types.js";
export { validateVideoRequest } from "./videos/validate-video-request.js";
export {
  describeSeconds,
  describeSizes,
  longestSeconds,
  secondsAllowed,
  sizeAllowed,
} from "./videos/video-model-spec.js";
export {
  findVideoRequestProblems,
  type VideoRequestProblem,
} from "./videos/video-request-problems.js";
export {
  type CreateAndWaitOptions,
  type DownloadContentOptions,
  type VideoCreateOptions,
  type VideoList,
  type VideoListQuery,
  Videos,
  type WaitForOptions,
} from "./videos/videos.js";
