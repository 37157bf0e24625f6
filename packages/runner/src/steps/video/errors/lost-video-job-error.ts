import { RunnerError } from "../../../errors/runner-error.js";

/**
 * A journaled video job that a resumed run tried to re-attach is unknown to the service
 * (404): it expired, or the run was started against another service (the built-in simulator's
 * jobs end with its process). It is not resubmitted on its own, since a new job is paid again.
 * @example throw new LostVideoJobError("clips", 2, "video_123", "http://127.0.0.1:8080", cause);
 */
export class LostVideoJobError extends RunnerError {
  readonly step: string;
  readonly index: number | undefined;
  readonly jobId: string;
  constructor(
    step: string,
    index: number | undefined,
    jobId: string,
    baseURL: string | undefined,
    cause?: unknown,
  ) {
    const where = index === undefined ? `step "${step}"` : `step "${step}" item ${index}`;
    const service = baseURL ? ` at ${baseURL}` : "";
    super(
      "video_job_lost",
      `The video job ${jobId} of ${where} is not known to the service${service} (404): it may have expired, or the run was started against another service. It was not submitted again, since a new job is paid again. Resume with --resubmit-lost (resubmitLostJobs: true) to submit it anew.`,
      { cause },
    );
    this.step = step;
    this.index = index;
    this.jobId = jobId;
  }
}
