import { InvalidRequestError } from "../errors/invalid-request-error.js";
import type { VideoCreateParams, VideoModelCatalog } from "./types.js";
import { findVideoRequestProblems } from "./video-request-problems.js";

/**
 * Checks a video request before anything is sent (see {@link findVideoRequestProblems}) and
 * throws `InvalidRequestError` when something is wrong: `field` is the first offending field,
 * `problems` lists them all, and the message joins them. Without a catalog only the shapes are
 * checked (the service decides the limits).
 *
 * @example
 * ```ts
 * validateVideoRequest({ model: "veo-3-fast", prompt: "a fox", seconds: 12 }, catalog);
 * // throws InvalidRequestError: `seconds: 12` is over veo-3-fast's 8; veo-3-long allows 1 to 20 seconds
 * ```
 */
export function validateVideoRequest(
  params: VideoCreateParams,
  catalog?: VideoModelCatalog | null,
): void {
  const problems = findVideoRequestProblems(params, catalog);
  const first = problems[0];
  if (!first) return;
  throw new InvalidRequestError(
    first.field,
    problems.map((problem) => problem.message).join("; "),
    problems.map(({ field, message }) => ({ field, message })),
  );
}
