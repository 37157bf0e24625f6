import { stepLocation } from "../executor/load-for-run.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";
import type { RunToPlay } from "./run-host.js";

/**
 * The budget a run plays with, the same for every host: the caller's maximum, else the one
 * the run journaled when it started (a resume or a recovered run keeps what it started with),
 * else the pipeline's `max_credits`; none when nothing sets one.
 * @example runBudget({ startedWith: 12, pipeline: 50 }) // 12
 * @example runBudget({ given: 5, startedWith: 12, pipeline: 50 }) // 5
 */
export function runBudget(budget: {
  /** The caller's `maxCredits` (a resume's own, else the journaled options'). */
  given?: number | undefined;
  /** The `maxCredits` of the run's `run.start` record, as read back (not checked yet). */
  startedWith?: unknown;
  /** The pipeline's `max_credits`. */
  pipeline?: number | undefined;
}): number | undefined {
  if (budget.given !== undefined) return budget.given;
  if (typeof budget.startedWith === "number") return budget.startedWith;
  return budget.pipeline;
}

/** What {@link runToPlay} makes a run to play from. */
export interface RunToPlayOptions {
  pipeline: LoadedPipeline;
  inputs: Record<string, unknown>;
  runId: string;
  /** The run's name (default: the pipeline's `name`). */
  name?: string | undefined;
  /** When the run first started (ISO 8601). */
  startedAt: string;
  /** The options the run journals (in `run.start`, or a session's `run.resume`). */
  journaled: Record<string, unknown>;
  /** The caller's budget, journaled in `run.start` (see {@link runBudget}). */
  maxCredits?: number | undefined;
  /** The budget the run's `run.start` journaled, for a run that goes on. */
  startedWith?: unknown;
  /** False: no estimate of its own (a sub-run spends from its parent's). Default true. */
  estimate?: boolean | undefined;
  /** A focused session (a retake, a pick). */
  focus?: RunToPlay["focus"];
  allowPartial?: boolean | undefined;
  kinds: ReadonlyMap<string, AnyStepKind>;
  catalogs?: ModelCatalogs | undefined;
  stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[] | undefined;
}

/**
 * The run a lifecycle plays, built the same way by every host (the local one, the DBOS one):
 * its budget by {@link runBudget}, its failing steps placed at their `file:line:column`.
 * @example await runLifecycle(runToPlay({ pipeline, inputs, runId, startedAt, journaled, kinds }), host);
 */
export function runToPlay(options: RunToPlayOptions): RunToPlay {
  const { pipeline } = options;
  return {
    pipeline,
    inputs: options.inputs,
    runId: options.runId,
    name: options.name ?? pipeline.spec.name,
    startedAt: options.startedAt,
    journaled: options.journaled,
    ...(options.maxCredits === undefined ? {} : { maxCredits: options.maxCredits }),
    budgetMax: runBudget({
      given: options.maxCredits,
      startedWith: options.startedWith,
      pipeline: pipeline.spec.max_credits,
    }),
    estimate: options.estimate !== false,
    focus: options.focus,
    allowPartial: options.allowPartial,
    kinds: options.kinds,
    catalogs: options.catalogs,
    stepKinds: options.stepKinds,
    locate: (step, field) => stepLocation(pipeline, step, field),
  };
}
