import { RunnerError } from "../../../errors/runner-error.js";

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
      `Whether the video job of ${where} was created cannot be settled: the connection dropped after the request was sent (Idempotency-Key ${idempotencyKey}), and the service could not say (it does not honour the key as configured, nor list its jobs with their prompts, or it kept failing). Nothing was sent again, to avoid paying twice. Look in the service's dashboard for a job with this prompt created at that time: if there is none, \`reelsmith resume\` with --resubmit-lost submits it again; if there is one, resuming the run once the service answers settles it again.`,
      { cause },
    );
    this.step = step;
    this.index = index;
    this.idempotencyKey = idempotencyKey;
  }
}
