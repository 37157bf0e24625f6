import type {
  ReelsmithClient,
  VideoCreateParams,
  VideoJob,
  VideoModelCatalog,
} from "@reelsmith/core";
import { AmbiguousSubmissionError, RequestUnsettledError } from "@reelsmith/core/errors";
import { sleep } from "../../executor/retry-policy.js";
import type { StepJournal } from "../../journal/step-journal.js";
import type { RunServices } from "../step-kind.js";
import { AmbiguousVideoSubmissionError } from "./errors/ambiguous-video-submission-error.js";

/** Attempts to settle an ambiguous submission (listing or resending) before the item fails. */
const SETTLE_ATTEMPTS = 4;
/** Times a submission is sent again after the service showed it made no job. */
const SEND_ATTEMPTS = 3;

/** What `submitVideo` needs: the request, its key, and where its facts go. */
export interface SubmitVideo {
  client: ReelsmithClient;
  /** The run's video models (the profile's and the service's listed ones) to check against. */
  videoModels?: VideoModelCatalog | undefined;
  params: VideoCreateParams;
  idempotencyKey: string;
  signal: AbortSignal;
  journal: StepJournal;
  step: string;
  index: number | undefined;
  /**
   * Job ids the run already holds: a listed job is adopted by one item only (brought up to
   * date first, where it can be, with the jobs journaled elsewhere).
   */
  claimed: NonNullable<RunServices["claimedJobs"]>;
  /** Send again when the service cannot say whether a job was made (the user accepted the risk). */
  resendUnresolvable: boolean;
}

function retryable(error: unknown): boolean {
  if (AmbiguousSubmissionError.isInstance(error)) return error.resolvable;
  return (error as { isRetryable?: unknown })?.isRetryable === true;
}

/**
 * Creates the video job of one submission, never two. A `video.intent` fact (key, time) is
 * journaled and durable before the request is sent; an attempt that finds one its job id did
 * not settle (a process killed while the request was in flight, or a connection dropped after
 * it was written) settles it before anything is sent again (`videos.resolveSubmission`: the
 * same key sent again to a service that honours it, else the job found in the service's list
 * and adopted). Only a service that offers neither way ends in
 * `AmbiguousVideoSubmissionError`, which says how to reconcile by hand, and a provider with
 * no way at all in its own `RequestUnsettledError` (`request_unsettled`), which says what
 * to check where.
 * @example const { job, adopted } = await submitVideo({ client, params, idempotencyKey, … });
 */
export async function submitVideo(
  options: SubmitVideo,
): Promise<{ job: VideoJob; adopted?: "idempotency-key" | "list" }> {
  const { client, params, idempotencyKey, signal, journal } = options;
  const fail = (cause: unknown) =>
    new AmbiguousVideoSubmissionError(options.step, options.index, idempotencyKey, cause);

  const settle = async (sinceMs: number) => {
    for (let attempt = 1; ; attempt++) {
      signal.throwIfAborted();
      try {
        const { via, jobs } = await client.videos.resolveSubmission(params, {
          idempotencyKey,
          sinceMs,
          signal,
        });
        // A listed job another item holds is never this one's, wherever that item runs.
        if (via === "list" && jobs.length > 0) await options.claimed.refresh?.();
        const job =
          via === "idempotency-key" ? jobs[0] : jobs.find((j) => !options.claimed.has(j.id));
        if (!job) return undefined; // the service made no job for it
        options.claimed.add(job.id);
        return { job, adopted: via };
      } catch (error) {
        // The provider has no way to find it: its own error says what to check where.
        if (RequestUnsettledError.isInstance(error)) {
          if (options.resendUnresolvable) return undefined;
          throw error;
        }
        if (AmbiguousSubmissionError.isInstance(error) && !error.resolvable) {
          if (options.resendUnresolvable) return undefined;
          throw fail(error);
        }
        if (!retryable(error) || attempt >= SETTLE_ATTEMPTS) throw fail(error);
        await sleep(100 * 2 ** attempt, signal);
      }
    }
  };

  // An intent journaled by an earlier attempt (a process killed while the request was in
  // flight, a connection lost before the answer) that no job id settled: the service may have
  // made the job. It is settled before anything is sent again.
  const pending = journal.recall("video.intent") ?? journal.recall("video.ambiguous");
  if (pending?.idempotencyKey === idempotencyKey && pending.settled !== true) {
    const settled = await settle(Number(pending.sinceMs ?? 0));
    if (settled) return settled;
  }
  for (let attempt = 1; ; attempt++) {
    signal.throwIfAborted();
    const sinceMs = Date.now();
    // Durable before the request leaves: a kill from here on finds it and settles it.
    await journal.record("video.intent", { idempotencyKey, sinceMs });
    try {
      const job = await client.videos.create(params, {
        signal,
        idempotencyKey,
        ...(options.videoModels ? { videoModels: options.videoModels } : {}),
      });
      options.claimed.add(job.id);
      return { job };
    } catch (error) {
      if (!AmbiguousSubmissionError.isInstance(error)) {
        // The service answered (a refusal): it made no job; nothing is left to settle.
        if (answered(error)) {
          await journal.record("video.intent", { idempotencyKey, sinceMs, settled: true });
        }
        throw error;
      }
      const settled = await settle(sinceMs);
      if (settled) return settled;
      if (attempt >= SEND_ATTEMPTS) throw fail(error);
    }
  }
}

/** True for an error the service answered with (an HTTP status): the request made no job. */
function answered(error: unknown): boolean {
  return typeof (error as { status?: unknown })?.status === "number";
}
