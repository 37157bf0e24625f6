import { ReelsmithError } from "./reelsmith-error.js";

/**
 * The connection dropped after `POST /v1/videos` was written, so a job may or may not
 * exist (and cost credits). Not retried automatically; resubmitting with the same
 * `idempotencyKey` lets a service that honours the header return the existing job.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (AmbiguousSubmissionError.isInstance(error))
 *     await client.videos.create(params, { idempotencyKey: error.idempotencyKey });
 * }
 * ```
 */
export class AmbiguousSubmissionError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.AmbiguousSubmissionError");
  readonly idempotencyKey: string;
  /**
   * False when `videos.resolveSubmission()` found that the service offers no way to settle it
   * (it does not honour the key as configured, and does not list its jobs or say their prompts).
   */
  readonly resolvable: boolean;
  constructor(
    idempotencyKey: string,
    options: {
      cause?: unknown;
      resolvable?: boolean;
      /** What was sent when it is not a video submission, e.g. `POST /v1/audio/speech`. */
      request?: string;
    } = {},
  ) {
    const resolvable = options.resolvable !== false;
    super(
      options.request !== undefined
        ? `${options.request} may or may not have been carried out (and charged): the connection failed after the request was sent (Idempotency-Key ${idempotencyKey}). Not retried, to avoid paying twice: send it again with the same key to a service that honours it, or check the account's usage.`
        : resolvable
          ? `The video submission may or may not have created a job: the connection failed after the request was sent (Idempotency-Key ${idempotencyKey}). Not retried, to avoid paying twice.`
          : `Whether the video submission with Idempotency-Key ${idempotencyKey} created a job cannot be settled: the service neither honours the key (honoursIdempotencyKeys) nor lists its jobs with their prompts (GET /v1/videos).`,
      { code: "ambiguous_submission", isRetryable: false, cause: options.cause },
    );
    this.idempotencyKey = idempotencyKey;
    this.resolvable = resolvable;
  }
}
