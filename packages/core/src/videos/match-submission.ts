import type { VideoCreateParams, VideoJob } from "./types.js";

/** How far a job's creation time may lie before the submission (clock skew with the service). */
export const CREATED_SLACK_SECONDS = 120;

/** The creation time of a listed job in seconds (`created_at` as openai, or `created`). */
export function createdSeconds(job: VideoJob): number | undefined {
  const value = (job as { created_at?: unknown }).created_at ?? job.created;
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * Whether a listed job is the one a submission of `params` at `sinceMs` created: same model,
 * prompt, seconds and size (where the request named them), created no earlier than the
 * submission (less the clock slack). `undefined` when the job does not say its prompt, so
 * that it cannot be told apart from another request of the same shape.
 * @example matchesSubmission(job, { model: "reel-video-1", prompt: "a fox", seconds: 4 }, Date.now() - 5000)
 */
export function matchesSubmission(
  job: VideoJob,
  params: VideoCreateParams,
  sinceMs: number,
): boolean | undefined {
  if (job.model !== params.model) return false;
  if (params.seconds !== undefined && String(job.seconds) !== String(params.seconds).trim())
    return false;
  if (params.size !== undefined && job.size !== params.size) return false;
  const created = createdSeconds(job);
  if (created === undefined || created < sinceMs / 1000 - CREATED_SLACK_SECONDS) return false;
  if (typeof job.prompt !== "string") return undefined;
  return job.prompt === params.prompt;
}
