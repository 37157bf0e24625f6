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
 *
 * The root holds the client, its options, its namespaces' types and the error base. The rest
 * is on named subpaths: `@reelsmith/core/errors` (every error class), `@reelsmith/core/catalog`
 * (model specs and the local request checks, without the HTTP client),
 * `@reelsmith/core/profile` (provider profiles) and `@reelsmith/core/providers` (each video and
 * speech provider's adapter and their registry).
 */

export { Audio, type SpeechOptions, type TranscribeOptions } from "./audio/audio.js";
export type * from "./audio/audio-types.js";
export { ChatCompletionStream } from "./chat/chat-completion-stream.js";
export type { ChatJSONParams, ChatJSONResult } from "./chat/chat-json.js";
export { ChatCompletions } from "./chat/completions.js";
export type { RunnableTool, RunToolsParams, RunToolsResult } from "./chat/run-tools.js";
export type * from "./chat/types.js";
export { type ChatNamespace, createClient, type ReelsmithClient } from "./client/create-client.js";
export type { ClientOptions } from "./client/options.js";
export {
  clientForModel,
  type RouteClientsOptions,
  routeClients,
} from "./client/routed-client.js";
// The error base: every reelsmith error is one, with a stable `code` and a `category`.
export {
  ERROR_CATEGORIES,
  type ErrorCategory,
  errorCategoryOf,
} from "./errors/error-category.js";
export {
  ReelsmithError,
  type ReelsmithErrorInit,
  type ReelsmithErrorOptions,
} from "./errors/reelsmith-error.js";
export type { FetchFunction } from "./http/fetch-request.js";
export type { RequestOptions } from "./http/request-options.js";
export type { Logger, OutgoingRequest } from "./http/transport-config.js";
export { imagePart } from "./images/image-part.js";
export type * from "./images/image-types.js";
export { type ImageRequestOptions, Images } from "./images/images.js";
export type { FileInput } from "./media-files/file-input.js";
export type { Modality, ModalitySection } from "./models/modalities.js";
export { Models } from "./models/models.js";
export type { Model } from "./models/types.js";
export type { DownloadProgress } from "./videos/download.js";
export type * from "./videos/types.js";
export type { VideoDialect } from "./videos/video-dialect.js";
export {
  type CreateAndWaitOptions,
  type DownloadContentOptions,
  type VideoCreateOptions,
  type VideoList,
  type VideoListQuery,
  Videos,
  type WaitForOptions,
} from "./videos/videos.js";
