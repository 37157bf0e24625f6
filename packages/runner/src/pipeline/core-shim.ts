/**
 * The `@reelsmith/core` surface the pipeline side relies on, in one place: the video model
 * catalog (spec 2.3), its checker, and the client type.
 *
 * @example
 * ```ts
 * const limits = referenceVideoModels.find((m) => m.id === "reel-video-1");
 * ```
 */
export type { VideoModelCatalog, VideoModelLimits } from "@reelsmith/core/catalog";
export {
  InvalidRequestError,
  referenceVideoModels,
  validateVideoRequest,
} from "@reelsmith/core/catalog";

/**
 * The client as `StepRunContext.client` / `RunOptions.client` see it. Kept loose on purpose
 * (tests pass scripted clients); step kinds narrow it to core's `ReelsmithClient`.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; core's ReelsmithClient is the real shape
export type ReelsmithClient = any;
