import { RunnerError } from "./runner-error.js";

/**
 * A video submission's outcome is unknown (the connection dropped after the request was
 * sent). The item is not resubmitted, so no job is paid twice; the message says how to check.
 * @example throw new AmbiguousVideoSubmissionError("clips", 2, "reelsmith-run-clips-2-1", cause);
 */
export class AmbiguousVideoSubmissionError extends RunnerError {
  readonly step: string;
  readonly index: number | undefined;
  readonly idempotencyKey: string;
  constructor(step: string, index: number | undefined, idempotencyKey: string, cause?: unknown) {
    const where = index === undefined ? `step "${step}"` : `step "${step}" item ${index}`;
    super(
      "video_submission_ambiguous",
      `The video job of ${where} may exist on the service: the connection dropped after the request was sent (Idempotency-Key ${idempotencyKey}). It was not resubmitted, to avoid paying twice. Check the service's job list (GET /v1/videos) or dashboard for it; resuming the run resubmits with the same Idempotency-Key, which a service that honours it answers with the existing job.`,
      { cause },
    );
    this.step = step;
    this.index = index;
    this.idempotencyKey = idempotencyKey;
  }
}
