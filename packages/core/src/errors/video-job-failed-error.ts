import type { VideoJob } from "../videos/types.js";
import { ReelsmithError } from "./reelsmith-error.js";

/**
 * A video job ended with status `failed`. `jobError` is the job's `error` field as sent.
 *
 * @example
 * ```ts
 * catch (error) { if (VideoJobFailedError.isInstance(error)) console.error(error.job.id, error.jobError); }
 * ```
 */
export class VideoJobFailedError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.VideoJobFailedError");
  readonly job: VideoJob;
  readonly jobError: unknown;
  constructor(job: VideoJob) {
    super(`Video job ${job.id} failed: ${describeJobError(job.error)}`, {
      code: "video_job_failed",
      isRetryable: false,
    });
    this.job = job;
    this.jobError = job.error;
  }
}

function describeJobError(error: unknown): string {
  if (typeof error === "string") return error;
  if (error && typeof error === "object") {
    const { message, code } = error as { message?: unknown; code?: unknown };
    if (typeof message === "string")
      return typeof code === "string" ? `${message} (${code})` : message;
  }
  return "no reason given";
}
