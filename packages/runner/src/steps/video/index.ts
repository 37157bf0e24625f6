import { ANY_PART, defineStepKind, loadOnce, usageAndCredits } from "../define-step-kind.js";
import { checkVideoStep } from "./video-check.js";
import { defaultClipPath } from "./video-files.js";
import { VIDEO_MODELS } from "./video-models.js";
import { videoOutputsOf } from "./video-outputs.js";
import { paramFiles } from "./video-params.js";
import { planVideo } from "./video-plan.js";
import type { VideoStepSpec } from "./video-schema.js";

/** Its `run` (and request check), loaded on first use. */
const videoStep = loadOnce(() => import("./video-step.js"));

export * from "./video-check.js";
export { VIDEO_MODELS, videoModelsOf } from "./video-models.js";
export type { VideoStepSpec } from "./video-schema.js";

/**
 * The `video` step kind: one job at the service (submitted with an idempotency key,
 * journaled before polling, downloaded into the run directory). Its schema and its `run`
 * load on first use.
 *
 * @example
 * ```ts
 * videoKind.queue; // "video": its units wait for the account's video slots
 * videoKind.accountQueue; // "jobs": and for a place among a provider account's jobs
 * ```
 */
export const videoKind = defineStepKind<VideoStepSpec>({
  kind: "video",
  schema: async () => (await import("./video-schema.js")).VideoStepSchema,
  defaultsSchema: async () => (await import("./video-schema.js")).VideoDefaultsSchema,
  queue: "video",
  // Jobs in flight at once: a job holds capacity at the service until it completes.
  slots: 4,
  // A provider account's clips in flight count within its `max_concurrent_jobs`.
  accountQueue: "jobs",
  phases: {
    slot: "slot",
    submitted: "submitted",
    status: "status",
    download: "transfer",
    downloaded: "saved",
  },
  outputs: videoOutputsOf,
  check: checkVideoStep,
  files: (spec) => [
    ...(typeof spec.image === "string"
      ? [{ path: ["image"], file: spec.image, what: "image", format: "image" as const }]
      : []),
    ...paramFiles(spec.params),
  ],
  writes: (spec, stepId) => [
    typeof spec.output === "string" ? spec.output : defaultClipPath(stepId, ANY_PART),
    ...(typeof spec.last_frame_output === "string" ? [spec.last_frame_output] : []),
  ],
  models: [
    {
      field: "model",
      catalog: VIDEO_MODELS,
      // The service's list names no video model's limits: a profile declares them.
      advice: (model) =>
        `A service that follows the interface does not list its video models: declare \`${model}\` with its limits and price under ${VIDEO_MODELS}: in a provider profile (reelsmith.config.yaml; \`reelsmith models --write-config --video-model ${model}\` writes a starting one)`,
    },
  ],
  plan: planVideo,
  requestLabels: { videoJobs: "video jobs" },
  totals: (outputs) => Object.assign(usageAndCredits(outputs), { made: { videos: 1 } }),
  summary: (spec) =>
    `${spec.model ?? ""}: ${String(spec.prompt ?? "")
      .replace(/\s+/g, " ")
      .slice(0, 60)}`,
  // The same clip asked for again is reused wherever this run wants it written.
  cache: {
    ignore: ["output"],
    // Its first frame, and any of the model's own parameters (a last frame), by their bytes.
    inputFiles: { image: "value", params: "values" },
    placeFiles: (spec, { stepId, index }) => ({
      file: spec.output ?? defaultClipPath(stepId, index),
      ...(spec.last_frame_output ? { last_frame: spec.last_frame_output } : {}),
    }),
  },
  report: { role: "clip" },
  heldJob: (facts) => {
    const id = facts["video.submitted"]?.jobId;
    if (typeof id !== "string") return undefined;
    // The credits its charge was counted at (in its account's unit: a job billed in another
    // unit cost no credits), else, from a journal written before, what the service reported.
    const completed = facts["video.completed"];
    const job = completed?.job as { usage?: { total_credits?: unknown } } | undefined;
    const credits = Number(completed?.credits ?? job?.usage?.total_credits);
    const settled = (fact: string) => facts[fact]?.jobId === id;
    const state = settled("video.downloaded")
      ? "saved"
      : settled("video.failed")
        ? "failed"
        : settled("video.completed")
          ? "completed"
          : "submitted";
    return Number.isFinite(credits) ? { id, state, credits } : { id, state };
  },
  checkRequest: async (spec, context) => {
    await (await videoStep()).checkedVideoRequest(spec, context);
  },
  run: async (spec, context) => (await videoStep()).runVideoStep(spec, context),
});
