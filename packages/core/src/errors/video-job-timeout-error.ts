import { ReelsmithError } from "./reelsmith-error.js";

/**
 * `videos.waitFor()` gave up after its `timeoutMs` while the job was still running.
 * The job itself goes on; poll it again later with its `jobId`.
 *
 * @example
 * ```ts
 * catch (error) { if (VideoJobTimeoutError.isInstance(error)) await client.videos.waitFor(error.jobId); }
 * ```
 */
export class VideoJobTimeoutError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.VideoJobTimeoutError");
  readonly jobId: string;
  readonly timeoutMs: number;
  constructor(jobId: string, timeoutMs: number) {
    super(`Video job ${jobId} did not finish within ${timeoutMs} ms.`, {
      code: "video_job_timeout",
      isRetryable: true,
    });
    this.jobId = jobId;
    this.timeoutMs = timeoutMs;
  }
}
