import type { VideoJob } from "../videos/types.js";
import { ReelsmithError } from "./reelsmith-error.js";

/**
 * Service codes of a failed job that a new submission of the same request would meet again
 * (its content was refused, or the request itself is wrong); any other failure (a
 * generation error, an internal one) may pass on another try.
 */
const PERMANENT_FAILURES = new Set([
  "moderation_blocked",
  "content_policy_violation",
  "content_filtered",
  "safety_violation",
  "invalid_request",
  "invalid_request_error",
  "invalid_prompt",
  "invalid_input",
  "unsupported_model",
  "model_not_found",
]);

/**
 * A video job ended with status `failed`. It is retryable (`isRetryable`) unless the
 * service's code says the same request would fail again (moderation, an invalid request). `serviceCode` and `serviceMessage` are the service's
 * own (from the job's normalised `error`); `job` is the job as last read.
 *
 * @example
 * ```ts
 * catch (error) { if (VideoJobFailedError.isInstance(error)) console.error(error.job.id, error.serviceCode, error.serviceMessage); }
 * ```
 */
export class VideoJobFailedError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.VideoJobFailedError");
  readonly job: VideoJob;
  /** The job's `error` as normalised: `{ code?, message }`. */
  readonly jobError: VideoJob["error"];
  /** The service's machine-readable code, when it gave one (e.g. `moderation_blocked`). */
  readonly serviceCode: string | undefined;
  /** The service's message, or "no reason given". */
  readonly serviceMessage: string;
  constructor(job: VideoJob) {
    const serviceMessage = job.error?.message ?? "no reason given";
    const serviceCode = job.error?.code;
    super(
      `Video job ${job.id} failed: ${serviceMessage}${serviceCode ? ` (${serviceCode})` : ""}`,
      {
        code: "video_job_failed",
        isRetryable: serviceCode === undefined || !PERMANENT_FAILURES.has(serviceCode),
      },
    );
    this.job = job;
    this.jobError = job.error;
    this.serviceCode = serviceCode;
    this.serviceMessage = serviceMessage;
  }
}
