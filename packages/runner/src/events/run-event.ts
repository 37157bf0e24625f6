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
  /**
   * What was spent in units that are not credits, by unit (`{ usd: 0.5 }`): models whose
   * provider prices in another unit with no `credits_per_unit`. Never added to `credits`.
   */
  otherUnits?: Record<string, number>;
  /**
   * What the units made with paid requests (not from the cache), counted by the noun their
   * kind declares, e.g. `{ videos: 3, images: 2 }`.
   */
  made: Record<string, number>;
  /** Jobs submitted (each one paid, or to be paid). */
  jobsSubmitted: number;
  /** Jobs a resumed run found at the service and waited for again (never paid twice). */
  jobsReattached: number;
  /** Paid results the cache served instead of a new request (their price is in `savedCredits`). */
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

/**
 * The moments of a unit's work a renderer shows, whatever the kind: a slot of its queue taken
 * (a paid request is sent next), a job held at the service and its status as polled, bytes
 * coming down, a file saved, a piece of streamed text, tokens used, local work done.
 * @example { stage: "status", job: "vid_1", status: "in_progress", polls: 3, progress: 40 }
 */
export type UnitProgress =
  | { stage: "slot" }
  | { stage: "submitted"; job: string; resumed?: boolean }
  | { stage: "status"; job: string; status: string; polls: number; progress?: number }
  | { stage: "transfer"; bytes: number; total?: number }
  | { stage: "saved"; file: string; bytes: number }
  | { stage: "text"; text: string }
  | { stage: "usage"; usage: UsageLike }
  | { stage: "work"; percent: number };

/** The stages of {@link UnitProgress}. */
export type ProgressStage = UnitProgress["stage"];

/**
 * Stages that come many times a second (text, bytes, local work): a store that keeps events
 * for later may leave them out; the unit's outcome never depends on them.
 * @example transientStages.has("text") // true
 */
export const transientStages: ReadonlySet<ProgressStage> = new Set(["text", "transfer", "work"]);

/**
 * How the run report shows a kind's units: `clip` a storyboard card each (prompt, poster,
 * takes), `conversation` its messages, `media` its file among the run's final media,
 * `approval` a gate's section (its message, what it shows, the decision); `work`
 * names its running phase in the timeline ("chat", "ffmpeg"; default "running").
 */
export interface StepReportRole {
  role?: "clip" | "conversation" | "media" | "approval";
  work?: string;
}

/** Why a resumed run goes on (see `run.start`'s `resumedAfter`). */
export type ResumeReason = "gate" | "take" | "interruption" | "failed" | "budget";

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
      /**
       * Why a resumed run goes on: a gate was decided (`gate`), a take remakes one of its
       * units (`take`), or its last session stopped: killed or cancelled (`interruption`),
       * `failed`, or at its budget (`budget`). Absent on a new run.
       */
      resumedAfter?: ResumeReason;
      /** The steps: id, kind, whether it fans out, and how the report shows it (its kind says). */
      steps: { id: string; kind: string; fanOut: boolean; report?: StepReportRole }[];
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
  | {
      type: "run.estimate";
      estimate: RunEstimate;
      maxCredits?: number;
      /** `take`: a retake's estimate, of that one unit (else the whole run's, as known now). */
      of?: "take";
    }
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
  /**
   * What one unit's work is doing, in words every renderer understands (`stage`, see
   * {@link UnitProgress}); `phase` is the kind's own name for the moment, one it declares
   * in its `phases`, and `kind` names the kind, so a reader needs no kind's code to show it.
   */
  | ({
      type: "unit.progress";
      step: string;
      index?: number;
      kind: string;
      phase: string;
    } & UnitProgress)
  | { type: "budget.reached"; credits: number; maxCredits: number }
  | { type: "log"; level: "debug" | "info" | "warn" | "error"; message: string; step?: string };

/** `Omit` that keeps a union a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The type names of all run events. */
export type RunEventType = RunEvent["type"];

/** The event of a given type, e.g. `RunEventOf<"unit.progress">`. */
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** Zero totals. */
export function emptyTotals(): RunTotals {
  return {
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    credits: 0,
    savedCredits: 0,
    made: {},
    jobsSubmitted: 0,
    jobsReattached: 0,
    jobsCached: 0,
    cachedSteps: 0,
  };
}

const figures = new Set([
  "promptTokens",
  "completionTokens",
  "totalTokens",
  "credits",
  "savedCredits",
  "estimatedCredits",
  "jobsSubmitted",
  "jobsReattached",
  "jobsCached",
  "cachedSteps",
  "made",
]);

/**
 * Adds `b` into `a` (mutates and returns `a`). A number of `b` under a name that is not a
 * figure is a count of what was made under that noun, as totals journaled before `made`
 * existed wrote it (`{ videos: 1 }`).
 * @example addTotals(emptyTotals(), { credits: 9, made: { videos: 1 } }).made // { videos: 1 }
 */
export function addTotals(a: RunTotals, b: Partial<RunTotals>): RunTotals {
  a.promptTokens += b.promptTokens ?? 0;
  a.completionTokens += b.completionTokens ?? 0;
  a.totalTokens += b.totalTokens ?? 0;
  a.credits += b.credits ?? 0;
  a.savedCredits += b.savedCredits ?? 0;
  // for…in, not Object.entries: this runs for every ledger entry and every unit.
  const made = b.made;
  if (made) for (const noun in made) addMade(a, noun, made[noun] as number);
  for (const name in b) {
    const value = (b as Record<string, unknown>)[name];
    if (typeof value === "number" && !figures.has(name)) addMade(a, name, value);
  }
  a.jobsSubmitted += b.jobsSubmitted ?? 0;
  a.jobsReattached += b.jobsReattached ?? 0;
  a.jobsCached += b.jobsCached ?? 0;
  a.cachedSteps += b.cachedSteps ?? 0;
  if (b.estimatedCredits !== undefined)
    a.estimatedCredits = (a.estimatedCredits ?? 0) + b.estimatedCredits;
  const other = b.otherUnits;
  if (other) {
    // A new object: totals copied with a spread share it until it changes.
    const sum = { ...a.otherUnits };
    for (const unit in other)
      sum[unit] = Math.round(((sum[unit] ?? 0) + (other[unit] ?? 0)) * 1e9) / 1e9;
    a.otherUnits = sum;
  }
  return a;
}

function addMade(totals: RunTotals, noun: string, count: number): void {
  if (!Number.isFinite(count) || count === 0) return;
  // A new object: totals copied with a spread share their `made` until it changes.
  totals.made = { ...totals.made, [noun]: (totals.made?.[noun] ?? 0) + count };
}

/**
 * All that was made, in words: `3 videos · 1 image`, or "" when nothing was.
 * @example describeMade({ videos: 3, images: 1 }) // "3 videos · 1 image"
 */
export function describeMade(made: Readonly<Record<string, number>> | undefined): string {
  return Object.entries(made ?? {})
    .filter(([, count]) => count > 0)
    .map(([noun, count]) => `${count} ${count === 1 ? singular(noun) : noun}`)
    .join(" · ");
}

/**
 * What a run spent in units that are not credits (a provider's `unit:` with no
 * `credits_per_unit`), in words, never added to its credits; undefined when nothing was. The
 * CLI's closing table, `status --database`, the report and the studio all say it so.
 * @example describeOtherUnits({ usd: 0.85 }) // "and 0.85 usd spent, not in credits (a provider's unit with no credits_per_unit)"
 */
export function describeOtherUnits(
  otherUnits: Readonly<Record<string, number>> | undefined,
): string | undefined {
  const spent = Object.entries(otherUnits ?? {}).filter(([, amount]) => amount !== 0);
  if (spent.length === 0) return undefined;
  const amounts = spent.map(([unit, amount]) => `${amount} ${unit}`).join(" and ");
  return `and ${amounts} spent, not in credits (a provider's unit with no credits_per_unit)`;
}

/** Units made in all, whatever their noun. */
export function countMade(made: Readonly<Record<string, number>> | undefined): number {
  return Object.values(made ?? {}).reduce((sum, count) => sum + count, 0);
}

function singular(noun: string): string {
  return noun.endsWith("s") && !noun.endsWith("ss") ? noun.slice(0, -1) : noun;
}
