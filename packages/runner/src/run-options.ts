import type { CacheIndex } from "./cache/cache-index.js";
import type { SubPipelineDepthError } from "./errors/sub-pipeline-depth-error.js";
import type { RunEvent, RunStatus, RunTotals, SerializedError } from "./events/run-event.js";
import type { CreditBudget } from "./executor/budget.js";
import type { StepSummary } from "./executor/execute-pipeline.js";
import type { QueueSlots } from "./executor/queue-slots.js";
import type {
  ModelCatalogs,
  RunServices,
  StepKind,
  StepKindSpec,
  StepRunContext,
} from "./steps/step-kind.js";

/** Options of `runPipeline` / `streamPipeline`. */
export interface RunOptions {
  /** Values of the pipeline's `inputs` (defaults fill the rest). */
  inputs?: Record<string, unknown>;
  /** Use this run directory instead of a new `<runsRoot>/<time>-<name>`. */
  runDir?: string;
  /** Where new run directories go (default "runs"). */
  runsRoot?: string;
  /** The service client; default: core's createClient with `baseURL` and the environment. */
  client?: StepRunContext["client"];
  /** Units of work (steps, fan-out items) at once (default 8). */
  concurrency?: number;
  /**
   * Units of a queue holding one of its slots at once, by the queue's name (the queue a kind
   * declares, e.g. `{ video: 2 }` for video jobs in flight); default: what each kind declares
   * (`slots`). Waiting for a slot holds none of the run's `concurrency`. A provider account's
   * own limit on a queue is `<queue>@<account>` (`{ "jobs@fal": 2 }`): units whose model the
   * client routes to that account (its `accountOf`) hold one of those too.
   */
  slots?: Readonly<Record<string, number>>;
  /**
   * Each provider account's limit of requests in flight at once (a profile's
   * `max_concurrent_jobs`), by account name: a unit whose model the client routes to the
   * account (its `accountOf`) holds one of its places while the account works on its request,
   * whatever its kind (each kind that sends to accounts names the places it holds, its
   * `accountQueue`). `slots` may still size one as `<accountQueue>@<account>`.
   * @example accountLimits: { fal: 2 }
   */
  accountLimits?: Readonly<Record<string, number>>;
  /**
   * Queue limits this run shares with other runs of this process (a batch's rows): its units
   * take their slots from these instead of limits of its own. Never journaled.
   */
  sharedSlots?: QueueSlots;
  /**
   * The run's credit budget (else, on resume, the one it started with, else the pipeline's
   * max_credits): a run whose certain cost is over it is refused before anything is sent,
   * and each video job reserves its price before it is submitted.
   */
  maxCredits?: number;
  /**
   * Let a fan-out start even when its budget cannot pay for all of its units (it makes what
   * fits, then stops `budget_reached`). Off: once a fan-out's length is known, a budget that
   * cannot pay for all of it stops the run before its first unit is sent.
   */
  allowPartial?: boolean;
  /**
   * What the caller keeps with the run beyond the runner's own options (the CLI's notification
   * targets), journaled with them and given back by `inspectRun(dir).options`.
   */
  keep?: Record<string, unknown>;
  /**
   * Aborting cancels the run at once: nothing new starts, running units stop (a video job
   * already submitted is left at the service, journaled: a resume re-attaches to it).
   */
  signal?: AbortSignal;
  /**
   * Aborting stops the run gently: no step, item or video submission starts any more, and
   * the units already running finish, so every job already paid for is waited for and its
   * clip kept (the run ends `cancelled`; the CLI's first Ctrl-C). `signal` still cancels at
   * once while it drains.
   */
  stopSignal?: AbortSignal;
  /** Receives every event. */
  onEvent?: (event: RunEvent) => void;
  /**
   * Reuse results of identical requests (default true). Like `concurrency`, `slots`, `accountLimits`,
   * `maxCredits`, `allowPartial`, `autoApprove` and `resubmitLostJobs`, it is journaled with the
   * run: a resume, a decision's continue or a retake keeps what the run was started with unless
   * given again.
   */
  cache?: boolean;
  /** Cache directory (default ".reelsmith/cache"). */
  cacheDir?: string;
  /**
   * Where cache entries live (default: JSON files in `cacheDir`); the clips' bytes stay
   * files in `cacheDir` either way. Sub-pipelines use the same index.
   */
  cacheIndex?: CacheIndex;
  /** Resume the run in this directory (journaled results reused, submitted jobs re-attached). */
  resume?: string;
  /**
   * On resume, submit again a journaled video job that the service answers with 404 (it
   * expired, or the run began on another service such as the built-in simulator). Off by
   * default: a new job is paid again, so the run fails with LostVideoJobError instead.
   */
  resubmitLostJobs?: boolean;
  /**
   * Approve every gate (`approve:` step) the run reaches, by "auto", journaled like a
   * decision of `reelsmith approve` (for unattended runs). Off: the run stops `waiting`.
   */
  autoApprove?: boolean;
  /**
   * The other model catalogs, by provider profile section (`image_models`, `speech_models`,
   * `transcription_models`): steps are checked, planned and priced against them.
   */
  catalogs?: ModelCatalogs;
  /**
   * The client talks to a simulator started just for this run (recorded in run.json). Only
   * such a run may be resumed on another built-in simulator; a run on a real service never is.
   */
  builtInService?: boolean;
  /** Service base URL when no client is given (kept in run.json; the key never is). */
  baseURL?: string;
  /** API key when no client is given (never written anywhere). */
  apiKey?: string;
  /** Step kinds to run with (default: chat, video, ffmpeg). */
  stepKinds?: readonly (StepKind | StepKindSpec<never>)[];
  /**
   * Runs this pipeline as a sub-pipeline of a unit of another run, for executors that run
   * units elsewhere: it spends from that run's budget, takes its video jobs' places from that
   * run's video limit, is not checked against the service's models again, and its own
   * sub-pipelines count their depth from `depth` (1 for a sub-pipeline of a top-level step).
   */
  subRunOf?: SubRunOf;
}

/**
 * What a sub-pipeline run shares with the run whose unit started it, said explicitly: the
 * budget it spends from, the queue slots its units take, how deep it is, where a
 * too-deep chain below it is told to every run above, and the models the top run learned.
 */
export interface SubRunOf {
  budget: CreditBudget;
  /** The parent's queue limits: its sub-run's units take their slots from the same ones. */
  slots?: QueueSlots;
  /** 1 for a sub-pipeline of a top-level step. */
  depth: number;
  /** Shared by a run and all its sub-runs: set once one of them is nested too deep. */
  trip?: { error?: SubPipelineDepthError };
  /** The other model catalogs the top run knows. */
  catalogs?: ModelCatalogs;
  /** The fence of the unit that started it (see `RunServices.fence`): its artifacts obey it too. */
  fence?: RunServices["fence"];
}

/** What a run gives back. */
export interface RunResult {
  status: RunStatus;
  runId: string;
  runDir: string;
  outputs: Record<string, unknown>;
  totals: RunTotals;
  steps: Record<string, StepSummary>;
  error?: SerializedError;
  durationMs: number;
}
