import type { ErrorCategory } from "@reelsmith/core/errors";
import type { RunEstimate } from "../plan/plan-types.js";

/** Totals of a step or of a whole run. */
/**
 * What a run (or a step) cost and used, as its ledger says (`ledger/ledger.ts`, folded from
 * the journal): every figure reelsmith shows is one of these.
 */
export interface RunTotals {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Credits spent: what the service charged (or the model's price, where it reports none). */
  credits: number;
  /** Credits the cache saved: the price of results served from it instead of paid again. */
  savedCredits: number;
  /** Credits expected before the run, where the prices and sizes were known (see `run.estimate`). */
  estimatedCredits?: number;
  /** Clips the run's units made with a job (submitted or re-attached), not from the cache. */
  videos: number;
  /** Jobs submitted (each one paid, or to be paid). */
  jobsSubmitted: number;
  /** Jobs a resumed run found at the service and waited for again (never paid twice). */
  jobsReattached: number;
  /** Video jobs the cache served instead of a new job (their price is in `savedCredits`). */
  jobsCached: number;
  cachedSteps: number;
}

/** An error as it travels in events, the journal and run results (never holds the API key). */
export interface SerializedError {
  name: string;
  code?: string;
  message: string;
  /** What the error means for the caller (core's `ErrorCategory`); absent on a foreign error. */
  category?: ErrorCategory;
  [field: string]: unknown;
}

/** Token usage reported by a chat completion. */
export interface UsageLike {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/**
 * Status of a run when it ends. `waiting`: it stopped at a gate (an `approve:` step) that
 * has no decision yet, after every step that does not depend on the gate settled; approve
 * or reject it, then resume. `rejected`: a gate was rejected.
 */
export type RunStatus =
  | "succeeded"
  | "failed"
  | "cancelled"
  | "budget_reached"
  | "waiting"
  | "rejected";

/** A gate the run stopped at, as `run.waiting` tells it. */
export interface WaitingGate {
  step: string;
  /** What the step waits for, in one sentence. */
  reason: string;
  /** The kind's own account (an approval's message, what it shows, its deadline). */
  details?: Record<string, unknown>;
}

/** Every event of a run, discriminated by `type`; each carries `seq` (from 1) and `time` (ISO). */
export type RunEvent = { seq: number; time: string } & RunEventBody;

/** An event body without `seq`/`time`, as step kinds emit it. */
export type RunEventBody =
  | {
      type: "run.start";
      runId: string;
      runDir: string;
      name: string;
      resumed: boolean;
      steps: { id: string; kind: string; fanOut: boolean }[];
    }
  | {
      type: "run.end";
      status: RunStatus;
      totals: RunTotals;
      outputs: Record<string, unknown>;
      error?: SerializedError;
      durationMs: number;
    }
  /** What the run is expected to cost, worked out before its first paid request. */
  | { type: "run.estimate"; estimate: RunEstimate; maxCredits?: number }
  | { type: "step.start"; step: string }
  | {
      type: "step.end";
      step: string;
      outputs: unknown;
      durationMs: number;
      cached: boolean;
      /** True when resume reused the result journaled by the interrupted run. */
      reused?: boolean;
      totals?: RunTotals;
    }
  | { type: "step.skip"; step: string; reason: string }
  /**
   * A step that cannot go on before a decision from outside the run (a gate), or one that
   * depends on such a step (`on` names the gate): it does not run now; a resume runs it.
   */
  | {
      type: "step.wait";
      step: string;
      reason: string;
      /** The gate it waits behind, for a step that depends on one. */
      on?: string;
      details?: Record<string, unknown>;
    }
  /**
   * The run stops at its gates (just before `run.end` with status `waiting`): which, and
   * what the steps behind them are expected to cost once they go on, fan-outs counted from
   * the outputs made so far.
   */
  | { type: "run.waiting"; gates: WaitingGate[]; next: RunEstimate }
  /**
   * What a step (or fan-out item) asks for: its body with defaults merged and expressions
   * evaluated (e.g. a clip's prompt), sent before it runs or is served from the cache.
   */
  | {
      type: "step.request";
      step: string;
      index?: number;
      kind: string;
      spec: Record<string, unknown>;
    }
  | {
      type: "step.fail";
      step: string;
      error: SerializedError;
      continued: boolean;
      /** What the step spent before it failed, as its ledger says. */
      totals?: RunTotals;
    }
  | {
      type: "step.retry";
      step: string;
      item?: number;
      attempt: number;
      delayMs: number;
      error: SerializedError;
    }
  | { type: "item.start"; step: string; index: number; total: number }
  | {
      type: "item.end";
      step: string;
      index: number;
      total: number;
      status: "succeeded" | "failed" | "cached" | "reused";
      error?: SerializedError;
    }
  | { type: "chat.delta"; step: string; index?: number; text: string }
  | { type: "chat.usage"; step: string; index?: number; usage: UsageLike }
  /** A video slot (`maxVideos`) was taken: the wait for one ends, the job is submitted next. */
  | { type: "video.slot"; step: string; index?: number }
  | { type: "video.submitted"; step: string; index?: number; jobId: string; resumed?: boolean }
  | {
      type: "video.status";
      step: string;
      index?: number;
      jobId: string;
      status: string;
      polls: number;
      progress?: number;
    }
  | { type: "video.downloaded"; step: string; index?: number; file: string; bytes: number }
  | { type: "download.progress"; step: string; index?: number; bytes: number; total?: number }
  | { type: "ffmpeg.progress"; step: string; index?: number; percent: number }
  | { type: "budget.reached"; credits: number; maxCredits: number }
  | { type: "log"; level: "debug" | "info" | "warn" | "error"; message: string; step?: string };

/** `Omit` that keeps a union a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The type names of all run events. */
export type RunEventType = RunEvent["type"];

/** The event of a given type, e.g. `RunEventOf<"video.status">`. */
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** Zero totals. */
export function emptyTotals(): RunTotals {
  return {
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    credits: 0,
    savedCredits: 0,
    videos: 0,
    jobsSubmitted: 0,
    jobsReattached: 0,
    jobsCached: 0,
    cachedSteps: 0,
  };
}

/** Adds `b` into `a` (mutates and returns `a`). */
export function addTotals(a: RunTotals, b: Partial<RunTotals>): RunTotals {
  a.promptTokens += b.promptTokens ?? 0;
  a.completionTokens += b.completionTokens ?? 0;
  a.totalTokens += b.totalTokens ?? 0;
  a.credits += b.credits ?? 0;
  a.savedCredits += b.savedCredits ?? 0;
  a.videos += b.videos ?? 0;
  a.jobsSubmitted += b.jobsSubmitted ?? 0;
  a.jobsReattached += b.jobsReattached ?? 0;
  a.jobsCached += b.jobsCached ?? 0;
  a.cachedSteps += b.cachedSteps ?? 0;
  if (b.estimatedCredits !== undefined)
    a.estimatedCredits = (a.estimatedCredits ?? 0) + b.estimatedCredits;
  return a;
}
