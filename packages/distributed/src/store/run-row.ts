import type { VideoDialect } from "@reelsmith/core";
import type { RunTotals } from "@reelsmith/runner";

/** What a run was asked to do (stored when it is enqueued). */
export interface RunRequest {
  runId: string;
  name: string;
  pipelinePath: string;
  pipelineSource: string;
  pipelineHash: string;
  inputs: Record<string, unknown>;
  options: StoredRunOptions;
  service: string;
  baseURL: string;
  runDir: string;
}

/**
 * How the run's workers talk to its service (what a provider profile says of it): stored
 * with the run, so every worker builds the same client. Never the key.
 *
 * @example
 * ```ts
 * const client: RunClientOptions = { dialect: "openai", listsJobs: true, pollIntervalMs: 2000 };
 * ```
 */
export interface RunClientOptions {
  /** The provider the video calls go to, a name of core's provider registry (default `reference`). */
  dialect?: VideoDialect;
  /** The service answers a repeated Idempotency-Key with the job it made. */
  honoursIdempotencyKeys?: boolean;
  /** `GET /v1/videos` lists the account's jobs (default: tried). */
  listsJobs?: boolean;
  /** Video poll interval (ms). */
  pollIntervalMs?: number;
}

/**
 * A provider account of the run's profile (`providers:`), as every worker builds its client:
 * where it is, how to talk to it, the NAMES of the environment variables of its key (each
 * worker reads the key from its own environment; never the key) and its own job limit.
 *
 * @example
 * ```ts
 * const fal: RunAccount = { name: "fal", baseURL: "https://queue.fal.run", client: { dialect: "fal" }, apiKeyEnv: ["FAL_KEY"], maxConcurrentJobs: 2 };
 * ```
 */
export interface RunAccount {
  /** Its name under the profile's `providers:`. */
  name: string;
  baseURL: string;
  client: RunClientOptions;
  /** The variables of its key: the first set one, or (a key in parts) each part in order. */
  apiKeyEnv: string[];
  /** Video jobs the account runs at once, across every worker (`max_concurrent_jobs`). */
  maxConcurrentJobs?: number;
  /** Short stable id of its base URL and name: its slot queue's name and budget scope. */
  key: string;
}

/** Run options that travel with the run (never the API key). */
export interface StoredRunOptions {
  maxCredits?: number;
  cache?: boolean;
  concurrency?: number;
  resubmitLostJobs?: boolean;
  account?: string;
  /** How workers build the run's client (default: core's defaults, the reference dialect). */
  client?: RunClientOptions;
  /**
   * The NAMES of the variables of the service's own key (a profile's `service.api_key_env`),
   * never the key: a worker without `--api-key` or `REELSMITH_API_KEY` reads it from these.
   */
  apiKeyEnv?: string[];
  /** The profile's other provider accounts; a model `models` names goes to its account. */
  accounts?: RunAccount[];
  /** The account of each routed model, by model id (a profile's `provider:` of each model). */
  models?: Readonly<Record<string, string>>;
  /** Gates (`approve:` steps) are approved by the run itself, by "auto". */
  autoApprove?: boolean;
  /** Let a fan-out the budget cannot wholly pay for make what fits. */
  allowPartial?: boolean;
  /**
   * The model catalogs, by the profile's section name (`video_models`, `image_models`, …):
   * each request is checked against them before it is sent.
   */
  catalogs?: Readonly<Record<string, readonly { id: string }[]>>;
  /**
   * How deep the run is among sub-pipelines: 0 (the default) for a run of its own. Its units'
   * sub-pipelines run one level deeper, up to the runner's MAX_SUB_PIPELINE_DEPTH.
   */
  depth?: number;
  /**
   * A budget scope the run shares with other runs (a batch's, `batch:<id>`): every
   * reservation of the run is checked against its maximum too, on every worker.
   */
  sharedScope?: string;
}

/** A run as `status` lists it. */
export interface RunRow extends RunRequest {
  attempt: number;
  status: string;
  cancelRequested: boolean;
  outputs?: Record<string, unknown>;
  totals?: RunTotals;
  error?: { name: string; message: string; code?: string };
  createdAt: Date;
  endedAt?: Date;
}

/**
 * A run's stored options as this version reads them: the video catalog of a run stored by an
 * older version (its own `videoModels` field) is read as its `video_models` catalog, so such
 * a run still resumes.
 */
function storedOptions(value: unknown): StoredRunOptions {
  const { videoModels, ...options } = (value ?? {}) as StoredRunOptions & {
    videoModels?: readonly { id: string }[];
  };
  if (!Array.isArray(videoModels) || options.catalogs?.video_models) return options;
  return { ...options, catalogs: { ...options.catalogs, video_models: videoModels } };
}

/**
 * A row of `reelsmith.runs` as the store gives it back.
 * @example const run = toRow(result.rows[0]); run.status;
 */
export function toRow(row: Record<string, unknown>): RunRow {
  return {
    runId: String(row.run_id),
    name: String(row.name),
    pipelinePath: String(row.pipeline_path),
    pipelineSource: String(row.pipeline_source),
    pipelineHash: String(row.pipeline_hash),
    inputs: row.inputs as Record<string, unknown>,
    options: storedOptions(row.options),
    service: String(row.service),
    baseURL: String(row.base_url),
    runDir: String(row.run_dir),
    attempt: Number(row.attempt),
    status: String(row.status),
    cancelRequested: row.cancel_requested === true,
    ...(row.outputs ? { outputs: row.outputs as Record<string, unknown> } : {}),
    ...(row.totals ? { totals: row.totals as RunTotals } : {}),
    ...(row.error ? { error: row.error as { name: string; message: string } } : {}),
    createdAt: row.created_at as Date,
    ...(row.ended_at ? { endedAt: row.ended_at as Date } : {}),
  };
}
