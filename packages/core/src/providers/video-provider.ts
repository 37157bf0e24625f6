import type { IncomingHttpHeaders } from "node:http";
import type { ProviderAccess } from "../http/provider-access.js";
import type { RequestOptions } from "../http/request-options.js";
import type { Transport } from "../http/transport.js";
import type { VideoCreateParams, VideoJob, VideoModelSpec } from "../videos/types.js";

/** What a provider's calls go through: core's own transport (never a client that retries by itself). */
export interface ProviderContext {
  transport: Transport;
}

/** A submission to make: the checked request, the caller's key, the model's spec if known. */
export interface VideoSubmission {
  params: VideoCreateParams;
  /** Chosen by the caller and journaled before the request leaves; sent where the provider honours one. */
  idempotencyKey: string;
  spec: VideoModelSpec | undefined;
  request: RequestOptions;
}

/** A submission whose answer was lost, to be found again (or refused with a clear error). */
export interface UnsettledSubmission {
  params: VideoCreateParams;
  idempotencyKey: string;
  /** When the request was sent (ms since the epoch); jobs made before it are not it. */
  sinceMs: number;
  request: RequestOptions;
  /** Sends the same request again with the same key (for providers that honour keys). */
  resend(): Promise<VideoJob>;
}

/** What settling found: the job the key answers with, or the listed jobs that match (oldest first). */
export interface SettledSubmission {
  via: "idempotency-key" | "list";
  jobs: VideoJob[];
}

/** One page of a provider's job list. */
export interface VideoJobPage {
  data: VideoJob[];
  has_more: boolean;
  last_id: string | undefined;
}

/**
 * One video provider: how core submits, finds again, polls, downloads and cancels a clip on
 * it. Each lives in its own folder under `core/src/providers/<name>/` and is listed once in
 * the registry (`providers/registry.ts`); nothing outside its folder names it. Its job ids
 * are whatever it needs to find the job again from the id alone (the runner journals them).
 *
 * @example
 * ```ts
 * const provider = videoProvider("fal");
 * const job = await provider.submit({ transport }, { params, idempotencyKey, spec, request: {} });
 * ```
 */
export interface VideoProvider extends ProviderAccess {
  /**
   * How a submission whose answer was lost is settled: `idempotency-key` (sent again with the
   * same key, when the account honours it), `list` (the provider's job list matched on the
   * request), or `none` (a clear `request_unsettled`, nothing sent again).
   */
  readonly settlement: readonly ("idempotency-key" | "list" | "none")[];
  /** Its own checks of a request, before anything is sent (throws `InvalidRequestError`). */
  validate(params: VideoCreateParams, spec: VideoModelSpec | undefined): void;
  /** Sends the request once (the transport resends only what cannot have been carried out). */
  submit(context: ProviderContext, submission: VideoSubmission): Promise<VideoJob>;
  /** The job in its current state (core's four statuses), with the answer's headers (poll hints). */
  retrieve(
    context: ProviderContext,
    id: string,
    request: RequestOptions,
  ): Promise<{ job: VideoJob; headers: IncomingHttpHeaders }>;
  /** Finds again what an unsettled submission made, or throws why it cannot (`request_unsettled`). */
  settle(context: ProviderContext, submission: UnsettledSubmission): Promise<SettledSubmission>;
  /** One page of the account's jobs, when the provider lists them. */
  list?(
    context: ProviderContext,
    query: { limit?: number; after?: string; order?: "asc" | "desc" },
    request: RequestOptions,
  ): Promise<VideoJobPage>;
  /** Where a completed job's video is downloaded from (a path on the base URL, or a URL). */
  contentURL(context: ProviderContext, id: string, request: RequestOptions): Promise<string>;
  /** Asks the provider to stop the job (what it has done may still be charged). */
  cancel(context: ProviderContext, id: string, request: RequestOptions): Promise<void>;
}
