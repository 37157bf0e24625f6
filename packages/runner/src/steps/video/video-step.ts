import { randomBytes } from "node:crypto";
import { rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { clientForModel, type ReelsmithClient, type VideoCreateParams } from "@reelsmith/core";
import { validateVideoRequest } from "@reelsmith/core/catalog";
import { NotFoundError } from "@reelsmith/core/errors";
import { extractFrame, probeKnown } from "@reelsmith/media";
import { executionExtras } from "../../executor/execution-context.js";
import { checkedImagePart } from "../../files/image-file.js";
import { knownFromOutput, probeOutput } from "../../media-probes/known-probes.js";
import { InvalidRequestError } from "../../pipeline/core-shim.js";
import type { RequestCheckContext, StepRunContext } from "../step-kind.js";
import { LostVideoJobError } from "./errors/lost-video-job-error.js";
import { assertVideoPromptLength } from "./video-check.js";
import { defaultClipPath } from "./video-files.js";
import { type ObtainedJob, obtainVideoJob } from "./video-job.js";
import { videoModelsOf } from "./video-models.js";
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
  const { stepId, index, journal, signal } = context;
  const extras = executionExtras(context);
  const params = await checkedVideoRequest(spec, extras);
  // The account that serves the model (the profile's `service`, or the provider it names).
  const client = clientForModel(context.client as ReelsmithClient, params.model);
  const target = resolve(context.resolveOutputPath(spec.output ?? defaultClipPath(stepId, index)));
  const unit = { context, client, params, extras };
  const downloadClip = async ({ job }: ObtainedJob) => {
    // Fetched under a name of its own, renamed into place only while the unit may write: a
    // worker that lost the unit to another never replaces the clip the other one saves.
    const fetched = join(
      dirname(target),
      `.${basename(target)}.${randomBytes(6).toString("hex")}.fetched`,
    );
    const saved = await client.videos.downloadContent(job.id, {
      to: fetched,
      signal,
      onProgress: (progress) =>
        context.progress("download", {
          stage: "transfer",
          bytes: progress.bytes,
          ...(progress.total === undefined ? {} : { total: progress.total }),
        }),
    });
    try {
      await extras?.fence?.(`rename the clip of job ${job.id} into place`);
      await rename(saved.path, target);
    } catch (error) {
      await rm(saved.path, { force: true });
      throw error;
    }
    return { job, path: target, bytes: saved.bytes };
  };
  const obtained = await obtainVideoJob(unit);
  const download = await downloadClip(obtained).catch(async (error: unknown) => {
    // A journaled, completed job whose content the service no longer has (expired, or a new
    // built-in simulator): lost, and submitted again only when the run allows it.
    if (!obtained.fromJournal || !NotFoundError.isInstance(error)) throw error;
    const jobId = String(journal.recall("video.submitted")?.jobId);
    await journal.record("video.lost", { jobId });
    if (!extras?.resubmitLostJobs) {
      throw new LostVideoJobError(stepId, index, jobId, client.baseURL, error);
    }
    return downloadClip(await obtainVideoJob(unit));
  });
  const { job } = download;
  // Probed once, here: the probe travels with the clip (outputs, journal) to the steps that
  // join or edit it. A clip ffprobe cannot read is left for those steps to report.
  const known = await probeKnown(download.path, { signal }).catch(() => undefined);
  // One object for the clip's probe: its output, which the run's known probes share.
  const probe = known ? probeOutput(known) : undefined;
  if (probe) extras?.knownProbes?.add(knownFromOutput(download.path, probe));
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
    ...(probe ? { probe } : {}),
    ...(lastFrame ? { last_frame: lastFrame } : {}),
  };
}
