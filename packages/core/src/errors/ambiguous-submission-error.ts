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
  constructor(idempotencyKey: string, options: { cause?: unknown } = {}) {
    super(
      `The video submission may or may not have created a job: the connection failed after the request was sent (Idempotency-Key ${idempotencyKey}). Not retried, to avoid paying twice.`,
      { code: "ambiguous_submission", isRetryable: false, cause: options.cause },
    );
    this.idempotencyKey = idempotencyKey;
  }
}
