import { basename } from "node:path";
import {
  NotFoundError,
  type ReelsmithClient,
  type VideoCreateParams,
  type VideoJob,
  VideoJobFailedError,
  validateVideoRequest,
} from "@reelsmith/core";
import { extractFrame, probeKnown } from "@reelsmith/media";
import { serializeError } from "../../errors/serialize-error.js";
import { executionExtras } from "../../executor/execution-context.js";
import { unitIdempotencyKey } from "../../executor/unit-idempotency-key.js";
import { checkedImagePart } from "../../files/image-file.js";
import { probeOutput } from "../../media-probes/known-probes.js";
import {
  estimateVideoCredits,
  InvalidRequestError,
  type VideoModelCatalog,
} from "../../pipeline/core-shim.js";
import type { RequestCheckContext, StepRunContext } from "../step-kind.js";
import { LostVideoJobError } from "./errors/lost-video-job-error.js";
import { submitVideo } from "./submit-video.js";
import { assertVideoPromptLength } from "./video-check.js";
import { defaultClipPath } from "./video-files.js";
import { videoModelsOf, videoRequestPrice } from "./video-models.js";
import { requestParams } from "./video-request-params.js";
import type { VideoStepSpec } from "./video-schema.js";
import { isAtLeastSeconds, roundUpSeconds, secondsAtLeast } from "./video-seconds.js";

/**
 * The request one video unit sends, checked as it will be sent: its image and parameter files
 * read and checked, its length rounded up to the model's, its values against the known models'
 * limits (a profile, the service's list) and the prompt's length. A retake's request is
 * checked with it before the take is journaled; a run's before it is submitted.
 * @example const params = await checkedVideoRequest(spec, { pipelineDir, catalogs });
 */
export async function checkedVideoRequest(
  spec: VideoStepSpec,
  extras: RequestCheckContext | undefined,
): Promise<VideoCreateParams> {
  const params: VideoCreateParams = {
    model: String(spec.model ?? ""),
    prompt: String(spec.prompt),
  };
  if (isAtLeastSeconds(spec.seconds)) {
    // As long as its narration, say: the shortest length the model accepts (else refused, unpaid).
    const atLeast = secondsAtLeast(spec.seconds);
    if (atLeast === undefined) {
      throw new InvalidRequestError(
        "seconds",
        `seconds.at_least is ${JSON.stringify(spec.seconds.at_least)}; expected a number of seconds (an output such as a narration's duration).`,
      );
    }
    const model = videoModelsOf(extras?.catalogs)?.find((entry) => entry.id === params.model);
    params.seconds = String(roundUpSeconds(atLeast, model));
  } else if (spec.seconds !== undefined) params.seconds = String(spec.seconds);
  if (spec.size !== undefined) params.size = String(spec.size);
  const pipelineDir = extras?.pipelineDir ?? process.cwd();
  // null or "" from an expression (the first item of a sequential fan-out): no image.
  if (spec.image !== undefined && spec.image !== null && spec.image !== "") {
    const part = await checkedImagePart(String(spec.image), pipelineDir);
    params.image_url = part.image_url.url;
  }
  if (spec.params !== undefined) {
    const model = videoModelsOf(extras?.catalogs)?.find((entry) => entry.id === params.model);
    const sent = await requestParams(spec.params, model, pipelineDir);
    if (Object.keys(sent).length > 0) params.params = sent;
  }
  // Against the known models' limits (a profile, the service's list): refused here, unpaid.
  validateVideoRequest(params, videoModelsOf(extras?.catalogs));
  assertVideoPromptLength(params.prompt);
  return params;
}

/**
 * Runs one video step (or fan-out item): validates the request against the model's limits,
 * submits it with an idempotency key, journals the job id BEFORE polling, polls with status
 * events, and downloads the clip into the run directory. On resume a journaled job is
 * re-attached (polled, not resubmitted) and a completed one only downloaded.
 * @example const outputs = await runVideoStep({ prompt: "a fox", seconds: 4 }, context);
 */
export async function runVideoStep(
  spec: VideoStepSpec,
  context: StepRunContext,
): Promise<Record<string, unknown>> {
  const client = context.client as ReelsmithClient;
  const { stepId, index, journal, signal } = context;
  const extras = executionExtras(context);
  const params = await checkedVideoRequest(spec, extras);
  const target = context.resolveOutputPath(spec.output ?? defaultClipPath(stepId, index));
  const budget = extras?.budget;

  // True when the job below was taken, completed, from the journal (resume): its content may
  // be gone from the service, which makes it a lost job, not a reason to retry forever.
  let fromJournal = false;
  const obtainJob = () =>
    context.slot(async (): Promise<VideoJob> => {
      fromJournal = false;
      context.progress("slot", { stage: "slot" });
      const submitted = journal.recall("video.submitted");
      const failed = journal.recall("video.failed");
      const lost = journal.recall("video.lost");

      const submit = async (): Promise<string> => {
        signal.throwIfAborted();
        // A stopping run pays for nothing new.
        context.stopSignal?.throwIfAborted();
        const previous = journal.recall("video.submitted");
        const submission = Number(previous?.submission ?? 0) + 1;
        const runId = extras?.runId ?? basename(context.runDir);
        const idempotencyKey = unitIdempotencyKey({
          runId,
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
        // Durable before the first poll: a crash from here on re-attaches instead of paying twice.
        await journal.record("video.submitted", {
          jobId: created.id,
          idempotencyKey,
          submission,
          ...(adopted ? { adopted } : {}),
        });
        await countSubmission(created.id);
        context.progress("submitted", { stage: "submitted", job: created.id });
        return created.id;
      };
      // Each fact's ledger entry, keyed by its job: written where the fact is made and again
      // on every path that finds it journaled (a kill between the two leaves it out), counted once.
      const countSubmission = (jobId: string) =>
        context.ledger.record({
          totals: { jobsSubmitted: 1 },
          jobId,
          key: `submitted:${jobId}`,
        });
      const countCharge = (jobId: string, charge: { credits: number; creditsFrom?: string }) =>
        context.ledger.record({
          totals: { credits: charge.credits, made: { videos: 1 } },
          ...(charge.creditsFrom === "service" || charge.creditsFrom === "price"
            ? { creditsFrom: charge.creditsFrom }
            : {}),
          jobId,
          key: `charged:${jobId}`,
        });

      let jobId: string;
      let reattached = false;
      const live = submitted && failed?.jobId !== submitted.jobId;
      if (live && lost?.jobId === submitted.jobId && !extras?.resubmitLostJobs) {
        throw new LostVideoJobError(stepId, index, String(submitted.jobId), client.baseURL);
      }
      if (live && lost?.jobId !== submitted.jobId) {
        jobId = String(submitted.jobId);
        reattached = true;
        context.progress("submitted", { stage: "submitted", job: jobId, resumed: true });
        await countSubmission(jobId);
        const completed = journal.recall("video.completed");
        if (completed?.jobId === jobId && completed.job) {
          // Completed (and charged) before: only its clip is fetched again. Its charge is
          // counted here only when the kill came between the fact and its ledger entry.
          fromJournal = true;
          const charge = {
            credits: Number(completed.credits ?? 0) || 0,
            ...(typeof completed.creditsFrom === "string"
              ? { creditsFrom: completed.creditsFrom }
              : {}),
          };
          if (await countCharge(jobId, charge)) {
            const key = submitted.idempotencyKey;
            await budget?.spend(charge.credits, typeof key === "string" ? { key } : undefined);
          }
          return completed.job as VideoJob;
        }
        await context.ledger.record({
          totals: { jobsReattached: 1 },
          jobId,
          key: `reattached:${jobId}`,
        });
      } else {
        jobId = await submit();
      }

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
      try {
        let done: VideoJob;
        try {
          done = await wait(jobId);
        } catch (error) {
          // A re-attached job the service no longer knows: never resubmitted unless asked to.
          if (!reattached || !NotFoundError.isInstance(error)) throw error;
          await journal.record("video.lost", { jobId });
          if (!extras?.resubmitLostJobs) {
            throw new LostVideoJobError(stepId, index, jobId, client.baseURL, error);
          }
          jobId = await submit();
          done = await wait(jobId);
        }
        const charge = chargeOf(done, params, videoModelsOf(extras?.catalogs));
        await journal.record("video.completed", { jobId, job: done, ...charge });
        await countCharge(jobId, charge);
        const key = journal.recall("video.submitted")?.idempotencyKey;
        await budget?.spend(charge.credits, typeof key === "string" ? { key } : undefined);
        return done;
      } catch (error) {
        if (VideoJobFailedError.isInstance(error)) {
          await journal.record("video.failed", { jobId, error: serializeError(error) });
        }
        // A job that did not complete is not paid: its reservation is given back.
        const key = journal.recall("video.submitted")?.idempotencyKey;
        if (typeof key === "string") await budget?.release?.({ key });
        throw error;
      }
    });

  const download = await downloadClip(await obtainJob()).catch(async (error: unknown) => {
    // A journaled, completed job whose content the service no longer has (expired, or a new
    // built-in simulator): lost, and submitted again only when the run allows it.
    if (!fromJournal || !NotFoundError.isInstance(error)) throw error;
    const jobId = String(journal.recall("video.submitted")?.jobId);
    await journal.record("video.lost", { jobId });
    if (!extras?.resubmitLostJobs) {
      throw new LostVideoJobError(stepId, index, jobId, client.baseURL, error);
    }
    return downloadClip(await obtainJob());
  });
  const { job } = download;
  async function downloadClip(job: VideoJob) {
    const saved = await client.videos.downloadContent(job.id, {
      to: target,
      signal,
      onProgress: (progress) =>
        context.progress("download", {
          stage: "transfer",
          bytes: progress.bytes,
          ...(progress.total === undefined ? {} : { total: progress.total }),
        }),
    });
    return { job, path: saved.path, bytes: saved.bytes };
  }
  // Probed once, here: the probe travels with the clip (outputs, journal) to the steps that
  // join or edit it. A clip ffprobe cannot read is left for those steps to report.
  const known = await probeKnown(download.path, { signal }).catch(() => undefined);
  if (known) extras?.knownProbes?.add(known);
  // The clip's last frame, for the next clip's reference image (continuity).
  const lastFrame = spec.last_frame_output
    ? (
        await extractFrame(download.path, {
          at: "last",
          output: context.resolveOutputPath(String(spec.last_frame_output)),
          signal,
        })
      ).output
    : undefined;
  await journal.record("video.downloaded", { jobId: job.id, file: download.path });
  context.progress("downloaded", { stage: "saved", file: download.path, bytes: download.bytes });
  return {
    file: download.path,
    id: job.id,
    duration: job.duration ?? (params.seconds === undefined ? undefined : Number(params.seconds)),
    credits: Number(journal.recall("video.completed")?.credits ?? job.usage?.total_credits ?? 0),
    url: job.video_url,
    ...(known ? { probe: probeOutput(known) } : {}),
    ...(lastFrame ? { last_frame: lastFrame } : {}),
  };
}

/**
 * What a completed job cost: the credits the service reports (the reference dialect), else
 * the model's price for its length and size (a service that reports none, such as OpenAI's
 * video API), else nothing known.
 */
function chargeOf(
  job: VideoJob,
  params: VideoCreateParams,
  videoModels: VideoModelCatalog | undefined,
): { credits: number; creditsFrom?: "service" | "price" } {
  const reported = job.usage?.total_credits;
  if (typeof reported === "number" && Number.isFinite(reported)) {
    return { credits: reported, creditsFrom: "service" };
  }
  const spec = videoModels?.find((model) => model.id === params.model);
  const seconds = Number(params.seconds ?? job.seconds ?? job.duration);
  const size = typeof params.size === "string" ? params.size : (job.size as string | undefined);
  const priced =
    spec && Number.isFinite(seconds) ? estimateVideoCredits(spec, seconds, size) : undefined;
  return priced === undefined ? { credits: 0 } : { credits: priced, creditsFrom: "price" };
}
