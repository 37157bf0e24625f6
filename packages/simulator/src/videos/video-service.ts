import { createHash, randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import pLimit from "p-limit";
import { defaultCatalog, type ServiceCatalog } from "../catalog/service-catalog.js";
import type { DialectConventions } from "../dialects/dialect-conventions.js";
import { HttpError } from "../errors/http-error.js";
import type { FaultInjector } from "../faults/fault-injector.js";
import type { Logger } from "../server/logger.js";
import type { StatsRecorder } from "../stats/simulator-stats.js";
import { renderClip } from "./render-clip.js";
import { jobTiming, pollAfterMs } from "./timing.js";
import type { VideoRequest } from "./validate-video-request.js";
import type { VideoJobRecord } from "./video-job.js";

/** Options of {@link createVideoService}. */
export interface VideoServiceOptions {
  timeScale: number;
  renderConcurrency: number;
  /** Served as every completed job's content instead of rendering one clip per job. */
  clipFile?: string;
  directory: string;
  stats: StatsRecorder;
  faults: FaultInjector;
  closing: AbortSignal;
  logger: Logger | undefined;
  baseUrl(): string;
  /** The models served, their timing and prices (default: the simulator's own). */
  catalog?: ServiceCatalog;
  /** The dialect whose job JSON {@link VideoService.toJson} answers. */
  dialect: DialectConventions;
}

/**
 * The word in a prompt that makes its job end `failed` with `error: { code, message }`.
 *
 * @example
 * await client.videos.create({ model: "reel-video-1", prompt: `A storm ${failWord}`, seconds: 4 }); // ends failed
 */
export const failWord = "#fail";

/**
 * Video jobs: creation (with Idempotency-Key), the pending → processing → completed|failed
 * timeline on timers, the JSON view, and lazy, concurrency-limited rendering of the content.
 *
 * @example
 * const videos = createVideoService({ timeScale: 0.01, renderConcurrency: 2, directory, stats, faults, closing, logger: undefined, baseUrl: () => url, dialect });
 */
export function createVideoService(options: VideoServiceOptions) {
  const catalog = options.catalog ?? defaultCatalog();
  const { dialect } = options;
  const jobs = new Map<string, VideoJobRecord>();
  const idempotency = new Map<string, { fingerprint: string; id: string }>();
  const timers = new Set<NodeJS.Timeout>();
  const renders = new Set<Promise<unknown>>();
  const limit = pLimit(options.renderConcurrency);
  let directoryReady: Promise<unknown> | undefined;

  const at = (ms: number, action: () => void) => schedule(timers, ms, action);

  /** Apply the transitions whose time has come (timers do it too; reads never see a stale state). */
  function advance(job: VideoJobRecord, now = Date.now()): VideoJobRecord {
    if (job.status === "pending" && now >= job.processingAtMs) job.status = "processing";
    if (job.status === "processing" && now >= job.doneAtMs) finish(job);
    return job;
  }

  const finish = (job: VideoJobRecord) => finishJob(job, catalog, options.stats);

  function create(
    request: VideoRequest,
    idempotencyKey: string | undefined,
  ): { job: VideoJobRecord; replayed: boolean } {
    const fingerprint = createHash("sha256").update(JSON.stringify(request)).digest("hex");
    const previous = previousJob(idempotency, jobs, idempotencyKey, fingerprint);
    if (previous) return { job: advance(previous), replayed: true };
    const now = Date.now();
    const timing = jobTiming(
      request.seconds,
      options.timeScale,
      catalog.speedFactor(request.model),
    );
    const job: VideoJobRecord = {
      id: `video_${randomBytes(12).toString("hex")}`,
      request,
      status: "pending",
      createdMs: now,
      processingAtMs: now + timing.pendingMs,
      doneAtMs: now + timing.pendingMs + timing.processingMs,
    };
    const failure = failureOf(request, options);
    if (failure) job.failure = failure;
    jobs.set(job.id, job);
    if (idempotencyKey !== undefined) idempotency.set(idempotencyKey, { fingerprint, id: job.id });
    options.stats.jobCreated(request.model);
    at(timing.pendingMs, () => {
      if (job.status === "pending") job.status = "processing";
    });
    at(timing.pendingMs + timing.processingMs, () => advance(job, Number.POSITIVE_INFINITY));
    return { job, replayed: false };
  }

  /** The job as the service answers it, in the simulator's dialect. */
  function toJson(job: VideoJobRecord): Record<string, unknown> {
    return dialect.jobJson(job, { progressOf, baseUrl: options.baseUrl });
  }

  /** Stops a job still running: it ends failed (`request_cancelled`) and is not charged. */
  function cancel(job: VideoJobRecord): boolean {
    advance(job);
    if (job.status === "completed" || job.status === "failed") return false;
    job.failure = { code: "request_cancelled", message: "The request was cancelled." };
    finish(job);
    return true;
  }

  /** Path of the rendered clip; renders it on first call (at most `renderConcurrency` at once). */
  function content(job: VideoJobRecord): Promise<string> {
    if (job.status !== "completed") throw notReadyError(job);
    if (options.clipFile) return Promise.resolve(options.clipFile);
    if (!job.render) {
      directoryReady ??= mkdir(options.directory, { recursive: true });
      const ready = directoryReady;
      const render = limit(() => renderJob(job, options, ready));
      job.render = render;
      renders.add(render);
      render.then(
        () => renders.delete(render),
        (error: unknown) => {
          renders.delete(render);
          job.render = undefined;
          options.logger?.error?.("simulator: rendering failed", {
            id: job.id,
            error: String(error),
          });
        },
      );
    }
    return job.render;
  }

  return {
    create,
    get(id: string): VideoJobRecord | undefined {
      const job = jobs.get(id);
      return job && advance(job);
    },
    /** Every job, oldest first, in its current state. */
    list(): VideoJobRecord[] {
      return [...jobs.values()].map((job) => advance(job));
    },
    toJson,
    progressOf,
    cancel,
    content,
    /** The poll hint for a job still running, else undefined. */
    pollAfter(job: VideoJobRecord): number | undefined {
      if (job.status === "completed" || job.status === "failed") return undefined;
      return pollAfterMs(job.doneAtMs - Date.now(), options.timeScale);
    },
    /** Stop every timer and wait for renders (already told to stop by the closing signal). */
    async close(): Promise<void> {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...renders]);
    },
  };
}

/** The service made by {@link createVideoService}. */
export type VideoService = ReturnType<typeof createVideoService>;

/** Runs `action` after `ms` (whole milliseconds), keeping the timer in `timers` until it fires. */
function schedule(timers: Set<NodeJS.Timeout>, ms: number, action: () => void): void {
  // Whole milliseconds: fractional timeouts can be badly delayed by Node's timer lists.
  const timer = setTimeout(
    () => {
      timers.delete(timer);
      action();
    },
    Math.max(1, Math.ceil(ms)),
  );
  timers.add(timer);
}

/** Ends a running job: failed with its failure, else completed and charged. */
function finishJob(
  job: VideoJobRecord,
  catalog: ServiceCatalog,
  stats: VideoServiceOptions["stats"],
): void {
  if (job.status === "completed" || job.status === "failed") return;
  job.completedAt = Math.floor(Date.now() / 1000);
  if (job.failure) {
    job.status = "failed";
    job.error = job.failure;
    stats.jobFailed();
    return;
  }
  job.status = "completed";
  const { model, seconds, width, height } = job.request;
  job.credits = catalog.credits(model, seconds, width, height);
  stats.jobCompleted(job.credits);
}

/** How a new job will fail: its prompt names the fail word, or a fault is injected; else undefined. */
function failureOf(
  request: VideoRequest,
  options: VideoServiceOptions,
): VideoJobRecord["failure"] | undefined {
  if (new RegExp(`(^|\\s)${failWord}\\b`, "i").test(request.prompt)) {
    return {
      code: "video_generation_failed",
      message: `The prompt contains ${failWord}, so generation failed.`,
    };
  }
  if (!options.faults.failsJob(request.model)) return undefined;
  options.stats.fault("fail-job");
  return {
    code: "video_generation_failed",
    message: "Video generation failed (fault injected by the simulator).",
  };
}

/** How far a job is, 0 to 100. */
function progressOf(job: VideoJobRecord): number {
  const span = Math.max(1, job.doneAtMs - job.processingAtMs);
  const progress =
    job.status === "completed"
      ? 100
      : job.status === "processing"
        ? Math.min(99, Math.floor(((Date.now() - job.processingAtMs) / span) * 100))
        : 0;
  return Math.max(0, progress);
}

/** The 409 for content asked of a job not completed. */
function notReadyError(job: VideoJobRecord): HttpError {
  return new HttpError(
    409,
    `Video ${job.id} is ${job.status}; its content can be downloaded once it is completed.`,
    {
      param: "video_id",
      code: job.status === "failed" ? "video_failed" : "video_not_ready",
    },
  );
}

/** Renders a completed job's clip into the service's directory, counted in its stats. */
async function renderJob(
  job: VideoJobRecord,
  options: VideoServiceOptions,
  directoryReady: Promise<unknown>,
): Promise<string> {
  await directoryReady;
  options.stats.renderStarted();
  let file: string | undefined;
  try {
    file = await renderClip(job.id, job.request, options.directory, options.closing);
    return file;
  } finally {
    options.stats.renderEnded(file !== undefined);
  }
}

/** The job an Idempotency-Key already made with the same body; a 409 when the body differs. */
function previousJob(
  idempotency: Map<string, { fingerprint: string; id: string }>,
  jobs: Map<string, VideoJobRecord>,
  idempotencyKey: string | undefined,
  fingerprint: string,
): VideoJobRecord | undefined {
  if (idempotencyKey === undefined) return undefined;
  const previous = idempotency.get(idempotencyKey);
  if (previous && previous.fingerprint !== fingerprint) {
    throw new HttpError(
      409,
      "This Idempotency-Key was already used with a different request body.",
      {
        param: "Idempotency-Key",
        code: "idempotency_key_reused",
      },
    );
  }
  return previous && jobs.get(previous.id);
}
