/**
 * The `@reelsmith/core` surface the pipeline side relies on, in one place: video model specs,
 * the request checks against a catalog, and the client type. The runner has no catalog of its
 * own: one comes from a provider profile, from the service's model list, or from the caller.
 *
 * @example
 * ```ts
 * const problems = findVideoRequestProblems({ model: "veo-3-fast", prompt: "x", seconds: 12 }, catalog);
 * ```
 */
export type {
  VideoCreateParams,
  VideoModelCatalog,
  VideoModelSpec,
  VideoRequestProblem,
} from "@reelsmith/core/catalog";
export {
  describeSeconds,
  describeSizes,
  estimateVideoCredits,
  findVideoRequestProblems,
  InvalidRequestError,
  validateVideoRequest,
} from "@reelsmith/core/catalog";

/**
 * The client as `StepRunContext.client` / `RunOptions.client` see it. Kept loose on purpose
 * (tests pass scripted clients); step kinds narrow it to core's `ReelsmithClient`.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; core's ReelsmithClient is the real shape
export type ReelsmithClient = any;
