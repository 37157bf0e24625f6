import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { ResolvedConfig } from "../client/config.js";
import { APIConnectionError } from "../errors/api-connection-error.js";
import { APIUserAbortError } from "../errors/api-user-abort-error.js";
import { VideoJobFailedError } from "../errors/video-job-failed-error.js";
import { VideoJobTimeoutError } from "../errors/video-job-timeout-error.js";
import type { RequestOptions } from "../http/request-options.js";
import { backoffDelay } from "../http/retry-policy.js";
import { sleep } from "../http/sleep.js";
import type { Transport } from "../http/transport.js";
import { videoProvider } from "../providers/registry.js";
import type { ProviderContext, VideoJobPage, VideoProvider } from "../providers/video-provider.js";
import { withDialectAdvice } from "./dialect-advice.js";
import { type DownloadProgress, streamToFile } from "./download.js";
import { pollDelay } from "./poll-delay.js";
import type { VideoCreateParams, VideoJob, VideoModelCatalog } from "./types.js";
import { validateVideoRequest } from "./validate-video-request.js";

/** Options of `videos.create()`. */
export interface VideoCreateOptions extends RequestOptions {
  /** Sent as `Idempotency-Key`; a random UUID when absent. Reuse it to resubmit the same job. */
  idempotencyKey?: string;
  /**
   * The catalog this request is checked against and encoded with, instead of the client's
   * (e.g. a run's, which adds the models the service lists to those a profile declares).
   */
  videoModels?: VideoModelCatalog | null;
}

/** Query of `videos.list()`. */
export interface VideoListQuery {
  /** Jobs per page, 1–100. */
  limit?: number;
  /** Continue after this job id (the previous page's `last_id`). */
  after?: string;
  order?: "asc" | "desc";
}

/** One page of `videos.list()`. */
export type VideoList = VideoJobPage;

/** Options of `videos.waitFor()`. */
export interface WaitForOptions {
  /** Between polls when the server gives no `openai-poll-after-ms` hint (default: the client's, 5 000). */
  pollIntervalMs?: number;
  /** Give up (VideoJobTimeoutError) after this long; default: wait forever. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called after every poll with the normalised job. */
  onUpdate?: (job: VideoJob, info: { polls: number }) => void;
  /** Per-request options of each poll (timeout, retries, headers). */
  request?: Omit<RequestOptions, "signal">;
}

/** Options of `videos.createAndWait()`. */
export interface CreateAndWaitOptions extends VideoCreateOptions {
  pollIntervalMs?: number;
  /** Overall limit for the wait (the per-attempt `timeoutMs` applies to each request). */
  waitTimeoutMs?: number;
  onUpdate?: (job: VideoJob, info: { polls: number }) => void;
}

/** Options of `videos.downloadContent()`. */
export interface DownloadContentOptions extends RequestOptions {
  /** Destination file; written through a temp file beside it, renamed on success. */
  to: string;
  /** Download this address (e.g. the job's `video_url`) instead of `/v1/videos/{id}/content`. Credentials are sent only to the base URL's origin. */
  url?: string;
  onProgress?: (progress: DownloadProgress) => void;
}

/**
 * `client.videos`: asynchronous video jobs (submit, poll, download).
 *
 * @example
 * ```ts
 * const job = await client.videos.createAndWait({ model: "sora-2", prompt: "a fox", seconds: 4 });
 * await client.videos.downloadContent(job.id, { to: "fox.mp4" });
 * ```
 */
export class Videos {
  readonly #transport: Transport<ResolvedConfig>;
  readonly #context: ProviderContext;

  /** @internal */
  constructor(transport: Transport<ResolvedConfig>) {
    this.#transport = transport;
    this.#context = { transport };
  }

  /** The client's provider's video side (a TypeError when it has none). */
  get #provider(): VideoProvider {
    return videoProvider(this.#transport.config.dialect);
  }

  /**
   * Submits a clip to the client's provider (`dialect`): checks the request against the
   * client's catalog (or `options.videoModels`) and the provider's own rules first, then sends
   * it once with the caller's `idempotencyKey` (as `Idempotency-Key` where the provider
   * honours one). Resent only when no job can have been made; an ambiguous disconnect throws
   * `AmbiguousSubmissionError`. A 400/415 about the body's encoding says which dialect
   * setting to change (`withDialectAdvice`).
   */
  async create(params: VideoCreateParams, options: VideoCreateOptions = {}): Promise<VideoJob> {
    const config = this.#transport.config;
    const {
      idempotencyKey = randomUUID(),
      videoModels = config.videoModels,
      ...requestOptions
    } = options;
    validateVideoRequest(params, videoModels);
    const spec = videoModels?.find((model) => model.id === params.model);
    this.#provider.validate(params, spec);
    return this.#provider
      .submit(this.#context, {
        params,
        idempotencyKey,
        spec,
        request: requestOptions,
      })
      .catch((error: unknown) => {
        throw withDialectAdvice(error, config.dialect);
      });
  }

  /**
   * One page of the service's jobs (newest first unless `order: "asc"`), where the provider
   * lists them (`GET /v1/videos`); pass the page's `last_id` as `after` for the next.
   */
  async list(query: VideoListQuery = {}, options: RequestOptions = {}): Promise<VideoList> {
    if (!this.#provider.list) {
      throw new TypeError(`The ${this.#provider.name} provider does not list its jobs`);
    }
    return this.#provider.list(this.#context, query, options);
  }

  /**
   * Settles an ambiguous submission (`AmbiguousSubmissionError`: the connection dropped after
   * the request was written) without paying twice, by the provider's own means: on a
   * `/v1/videos` service with `honoursIdempotencyKeys` the request is sent again with the same
   * key, and the service answers with the job it made, if any; otherwise (unless the client
   * option `listsJobs` is false) the service's jobs are listed and those matching the request
   * (model, prompt, seconds, size, created since `sinceMs`) are returned, oldest first, so the
   * caller adopts one it has not claimed; an empty list means no job was made. A service that
   * offers neither throws the `AmbiguousSubmissionError` again (reconcile by hand); a provider
   * with no way at all throws `RequestUnsettledError` saying what to check where.
   * @example
   * const found = await client.videos.resolveSubmission(params, { idempotencyKey, sinceMs });
   */
  async resolveSubmission(
    params: VideoCreateParams,
    options: { idempotencyKey: string; sinceMs: number; signal?: AbortSignal },
  ): Promise<{ via: "idempotency-key" | "list"; jobs: VideoJob[] }> {
    const { idempotencyKey, sinceMs, signal } = options;
    const request: RequestOptions = signal ? { signal } : {};
    return this.#provider.settle(this.#context, {
      params,
      idempotencyKey,
      sinceMs,
      request,
      resend: () => this.create(params, { ...request, idempotencyKey }),
    });
  }

  /** The job in its current (normalised) state (`GET /v1/videos/{id}`, or the provider's status). */
  async retrieve(id: string, options: RequestOptions = {}): Promise<VideoJob> {
    return (await this.#retrieve(id, options)).job;
  }

  /** Asks the provider to stop the job (`DELETE /v1/videos/{id}`, or the provider's own cancel). */
  async cancel(id: string, options: RequestOptions = {}): Promise<void> {
    await this.#provider.cancel(this.#context, id, options);
  }

  async #retrieve(
    id: string,
    options: RequestOptions,
  ): Promise<{ job: VideoJob; headers: IncomingHttpHeaders }> {
    if (typeof id !== "string" || id === "")
      throw new TypeError("Expected `id` to be a non-empty string");
    return this.#provider.retrieve(this.#context, id, options);
  }

  /**
   * Polls until the job is `completed` (resolves) or `failed` (throws
   * `VideoJobFailedError`). Waits as `pollDelay` says: the service's hint, else the interval.
   */
  async waitFor(id: string, options: WaitForOptions = {}): Promise<VideoJob> {
    const interval = options.pollIntervalMs ?? this.#transport.config.pollIntervalMs;
    const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
    const signal = options.signal;
    let polls = 0;
    for (;;) {
      if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
      const request: RequestOptions = { ...(options.request ?? {}) };
      if (signal) request.signal = signal;
      const { job, headers } = await this.#retrieve(id, request);
      polls += 1;
      options.onUpdate?.(job, { polls });
      if (job.status === "completed") return job;
      if (job.status === "failed") throw new VideoJobFailedError(job);
      let delay = pollDelay(headers, interval);
      if (deadline !== undefined) {
        const left = deadline - Date.now();
        if (left <= 0) throw new VideoJobTimeoutError(id, options.timeoutMs ?? 0);
        delay = Math.min(delay, left);
      }
      this.#transport.config.logger.debug?.("video job still running", {
        id,
        status: job.status,
        polls,
        delayMs: delay,
      });
      await sleep(delay, signal);
    }
  }

  /** `create()` then `waitFor()`. */
  async createAndWait(
    params: VideoCreateParams,
    options: CreateAndWaitOptions = {},
  ): Promise<VideoJob> {
    const { pollIntervalMs, waitTimeoutMs, onUpdate, ...createOptions } = options;
    const job = await this.create(params, createOptions);
    const waitOptions: WaitForOptions = {};
    if (pollIntervalMs !== undefined) waitOptions.pollIntervalMs = pollIntervalMs;
    if (waitTimeoutMs !== undefined) waitOptions.timeoutMs = waitTimeoutMs;
    if (onUpdate) waitOptions.onUpdate = onUpdate;
    if (options.signal) waitOptions.signal = options.signal;
    const { signal: _signal, idempotencyKey: _key, ...request } = createOptions;
    waitOptions.request = request;
    return this.waitFor(job.id, waitOptions);
  }

  /**
   * Streams the video to `to` (temp file beside it, then rename) with bounded memory.
   * `timeoutMs` covers the response headers; then `streamIdleTimeoutMs` applies between
   * chunks. A body that breaks off is downloaded again from the start (up to `maxRetries`).
   */
  async downloadContent(
    id: string,
    options: DownloadContentOptions,
  ): Promise<{ path: string; bytes: number }> {
    if (!options || typeof options.to !== "string" || options.to === "") {
      throw new TypeError("Expected `options.to` to be the destination file path");
    }
    const { to, url, onProgress, ...request } = options;
    const config = this.#transport.config;
    const maxRetries = request.maxRetries ?? config.maxRetries;
    for (let attempt = 0; ; attempt++) {
      // The transport retries until the headers arrive; a body that breaks off later is
      // fetched again from the start here (a GET is safe to repeat).
      const response = await this.#transport.stream({
        method: "GET",
        path: url ?? (await this.#provider.contentURL(this.#context, id, request)),
        accept: "*/*",
        options: request,
      });
      try {
        return await streamToFile(this.#transport, response, to, onProgress);
      } catch (error) {
        if (!APIConnectionError.isInstance(error) || attempt >= maxRetries) throw error;
        const delay = backoffDelay(attempt, config.retryBaseDelayMs, config.retryMaxBackoffMs);
        config.logger.warn?.("retrying download", {
          id,
          attempt: attempt + 1,
          delayMs: delay,
          error: error.message,
        });
        await sleep(delay, request.signal);
      }
    }
  }
}
