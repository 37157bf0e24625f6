/**
 * @reelsmith/core/catalog: the video model catalog (spec 2.3) and the local request check,
 * without the HTTP client. For code that only validates (a pipeline checker, a CLI's
 * `validate`) and should not load undici.
 *
 * @example
 * ```ts
 * import { referenceVideoModels, validateVideoRequest } from "@reelsmith/core/catalog";
 * validateVideoRequest({ model: "reel-video-1", prompt: "a fox", seconds: "4" });
 * ```
 */
export { InvalidRequestError } from "./errors/invalid-request-error.js";
export { referenceVideoModels } from "./videos/catalog.js";
export type { VideoCreateParams, VideoModelCatalog, VideoModelLimits } from "./videos/types.js";
export { validateVideoRequest } from "./videos/validate-video-request.js";
