import { basename } from "node:path";
import type { ReelsmithClient, VideoCreateParams, VideoJob } from "@reelsmith/core";
import { NotFoundError, VideoJobFailedError } from "@reelsmith/core/errors";
import { serializeError } from "../../errors/serialize-error.js";
import type { ExecutionExtras } from "../../executor/execution-context.js";
import { unitIdempotencyKey } from "../../executor/unit-idempotency-key.js";
import { estimateVideoCredits } from "../../pipeline/core-shim.js";
import { chargeInModelUnit, type UnitCharge } from "../../plan/price-units.js";
import type { StepRunContext } from "../step-kind.js";
import { LostVideoJobError } from "./errors/lost-video-job-error.js";
import { submitVideo } from "./submit-video.js";
import { videoModelsOf, videoRequestPrice } from "./video-models.js";

/** What one video unit's job needs: its context, its client, its checked request, the run's services. */
export interface VideoUnit {
  context: StepRunContext;
  client: ReelsmithClient;
  params: VideoCreateParams;
  extras: ExecutionExtras | undefined;
}

/** The job a unit obtained, and whether it was taken, completed, from the journal (resume). */
export interface ObtainedJob {
  job: VideoJob;
  /** Its content may be gone from the service: a lost job then, not a reason to retry forever. */
  fromJournal: boolean;
}

/**
 * The unit's completed job, within a slot of its queue: the one it journaled (re-attached and
 * waited for, or, completed and charged before, taken as it is), else a new one submitted with
 * an idempotency key, journaled BEFORE the first poll and waited for with status progress.
 * @example const { job } = await obtainVideoJob({ context, client, params, extras });
 */
export function obtainVideoJob(unit: VideoUnit): Promise<ObtainedJob> {
  const { context, client, extras } = unit;
  const { stepId, index, journal } = context;
  return context.slot(async (): Promise<ObtainedJob> => {
    context.progress("slot", { stage: "slot" });
    const submitted = journal.recall("video.submitted");
    const failed = journal.recall("video.failed");
    const lost = journal.recall("video.lost");
    const live = submitted && failed?.jobId !== submitted.jobId;
    if (live && lost?.jobId === submitted.jobId && !extras?.resubmitLostJobs) {
      throw new LostVideoJobError(stepId, index, String(submitted.jobId), client.baseURL);
    }
    if (!live || lost?.jobId === submitted.jobId) {
      if (live) sayResubmitted(context, String(submitted.jobId));
      return { job: await waitForJob(unit, await submitJob(unit), false), fromJournal: false };
    }
    const jobId = String(submitted.jobId);
    context.progress("submitted", { stage: "submitted", job: jobId, resumed: true });
    await countSubmission(context, jobId);
    const completed = journal.recall("video.completed");
    if (completed?.jobId === jobId && completed.job) {
      // Completed (and charged) before: only its clip is fetched again. Its charge is
      // counted here only when the kill came between the fact and its ledger entry.
      const charge: Charge = {
        credits: Number(completed.credits ?? 0) || 0,
        ...(typeof completed.creditsFrom === "string"
          ? { creditsFrom: completed.creditsFrom }
          : {}),
        ...(completed.otherUnits && typeof completed.otherUnits === "object"
          ? { otherUnits: completed.otherUnits as Record<string, number> }
          : {}),
      };
      if (await countCharge(context, jobId, charge)) {
        const key = submitted.idempotencyKey;
        await extras?.budget?.spend(charge.credits, typeof key === "string" ? { key } : undefined);
      }
      return { job: completed.job as VideoJob, fromJournal: true };
    }
    await context.ledger.record({
      totals: { jobsReattached: 1 },
      jobId,
      key: `reattached:${jobId}`,
    });
    return { job: await waitForJob(unit, jobId, true), fromJournal: false };
  });
}

/**
 * Submits the unit's request as its next submission: its price reserved from the budget
 * first, the job settled against an earlier unsettled submission (`submitVideo`), and its id
 * journaled before anything else (a crash from then on re-attaches instead of paying twice).
 */
async function submitJob(unit: VideoUnit): Promise<string> {
  const { context, client, params, extras } = unit;
  const { stepId, index, journal, signal } = context;
  const budget = extras?.budget;
  signal.throwIfAborted();
  // A stopping run pays for nothing new.
  context.stopSignal?.throwIfAborted();
  const previous = journal.recall("video.submitted");
  const submission = Number(previous?.submission ?? 0) + 1;
  const idempotencyKey = unitIdempotencyKey({
    runId: extras?.runId ?? basename(context.runDir),
    step: stepId,
    index,
    submission,
    take: context.take,
  });
  const expected = videoRequestPrice(params, videoModelsOf(extras?.catalogs));
  await budget?.assertCanSubmit({
    key: idempotencyKey,
    request: { ...params },
    ...(expected === undefined ? {} : { credits: expected }),
  });
  if (context.stopSignal?.aborted) {
    // It stopped while this waited for the budget: give the reservation back.
    await budget?.release?.({ key: idempotencyKey });
    context.stopSignal.throwIfAborted();
  }
  const { job: created, adopted } = await submitVideo({
    client,
    videoModels: videoModelsOf(extras?.catalogs),
    params,
    idempotencyKey,
    signal,
    journal,
    step: stepId,
    index,
    claimed: extras?.claimedJobs ?? new Set(),
    resendUnresolvable: extras?.resubmitLostJobs === true,
  }).catch(async (error: unknown) => {
    // Not sent, or refused: its reservation holds nothing any more.
    await budget?.release?.({ key: idempotencyKey });
    throw error;
  });
  await journal.record("video.submitted", {
    jobId: created.id,
    idempotencyKey,
    submission,
    ...(adopted ? { adopted } : {}),
  });
  await countSubmission(context, created.id);
  context.progress("submitted", { stage: "submitted", job: created.id });
  return created.id;
}

/**
 * Says that a journaled job the service no longer knows is submitted anew (the run allows
 * it), so "re-attached" then "submitted" under a new id reads as what it is.
 */
function sayResubmitted(context: StepRunContext, jobId: string): void {
  const { stepId, index } = context;
  context.emit({
    type: "log",
    level: "warn",
    step: stepId,
    message: `video job ${jobId}${index === undefined ? "" : ` (item ${index})`} is not known to the service (404): submitted anew, as the run allows (--resubmit-lost, or a run on the built-in simulator, whose new instance knows none of the last one's jobs)`,
  });
}

/**
 * Polls the job until it completes (status progress on the way), journals and counts its
 * charge and spends it; a failed job is journaled and its reservation given back. A
 * re-attached job the service no longer knows is lost: submitted again only when the run
 * allows it.
 */
async function waitForJob(unit: VideoUnit, first: string, reattached: boolean): Promise<VideoJob> {
  const { context, client, params, extras } = unit;
  const { stepId, index, journal, signal } = context;
  const wait = (id: string) =>
    client.videos.waitFor(id, {
      signal,
      onUpdate: (update, info) =>
        context.progress("status", {
          stage: "status",
          job: id,
          status: update.status,
          polls: info.polls,
          ...(typeof update.progress === "number" ? { progress: update.progress } : {}),
        }),
    });
  let jobId = first;
  try {
    let done: VideoJob;
    try {
      done = await wait(jobId);
    } catch (error) {
      if (!reattached || !NotFoundError.isInstance(error)) throw error;
      await journal.record("video.lost", { jobId });
      if (!extras?.resubmitLostJobs) {
        throw new LostVideoJobError(stepId, index, jobId, client.baseURL, error);
      }
      sayResubmitted(context, jobId);
      jobId = await submitJob(unit);
      done = await wait(jobId);
    }
    const charge = chargeOf(done, params, extras?.catalogs);
    await journal.record("video.completed", { jobId, job: done, ...charge });
    await countCharge(context, jobId, charge);
    const key = journal.recall("video.submitted")?.idempotencyKey;
    await extras?.budget?.spend(charge.credits, typeof key === "string" ? { key } : undefined);
    return done;
  } catch (error) {
    if (VideoJobFailedError.isInstance(error)) {
      await journal.record("video.failed", { jobId, error: serializeError(error) });
    }
    // A job that did not complete is not paid: its reservation is given back.
    const key = journal.recall("video.submitted")?.idempotencyKey;
    if (typeof key === "string") await extras?.budget?.release?.({ key });
    throw error;
  }
}

// Each fact's ledger entry, keyed by its job: written where the fact is made and again on
// every path that finds it journaled (a kill between the two leaves it out), counted once.
function countSubmission(context: StepRunContext, jobId: string): Promise<boolean> {
  return context.ledger.record({
    totals: { jobsSubmitted: 1 },
    jobId,
    key: `submitted:${jobId}`,
  });
}

/** What a job cost: credits, and in units with no rate to credits (apart, never added). */
type Charge = Omit<UnitCharge, "creditsFrom"> & { creditsFrom?: string };

function countCharge(context: StepRunContext, jobId: string, charge: Charge): Promise<boolean> {
  return context.ledger.record({
    totals: {
      credits: charge.credits,
      made: { videos: 1 },
      ...(charge.otherUnits ? { otherUnits: charge.otherUnits } : {}),
    },
    ...(charge.creditsFrom === "service" || charge.creditsFrom === "price"
      ? { creditsFrom: charge.creditsFrom }
      : {}),
    jobId,
    key: `charged:${jobId}`,
  });
}

/**
 * What a completed job cost, counted in its account's unit: what the service reports (the
 * reference dialect's `usage.total_credits`, in the account's unit), else the model's price
 * for its length and size (a service that reports none, such as OpenAI's or fal's), else
 * nothing known. An amount in a unit with no rate to credits is totalled in that unit.
 */
function chargeOf(
  job: VideoJob,
  params: VideoCreateParams,
  catalogs: ExecutionExtras["catalogs"],
): Charge {
  const seconds = Number(params.seconds ?? job.seconds ?? job.duration);
  const size = typeof params.size === "string" ? params.size : (job.size as string | undefined);
  return chargeInModelUnit(catalogs, params.model, job.usage?.total_credits, (priced, unit) => {
    const spec = videoModelsOf(priced)?.find((model) => model.id === params.model);
    return spec && Number.isFinite(seconds)
      ? estimateVideoCredits(spec, seconds, size, unit)
      : undefined;
  });
}
