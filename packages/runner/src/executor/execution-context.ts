import type { RunTotals } from "../events/run-event.js";
import type { KnownProbes } from "../media-probes/known-probes.js";
import type { ModelCatalogs, StepRunContext } from "../steps/step-kind.js";
import type { CreditBudget } from "./budget.js";

/**
 * What the executor gives a step kind beyond the agreed `StepRunContext`: the pipeline's
 * directory (input files are relative to it), the credit budget, and sub-pipeline runs.
 */
export interface ExecutionExtras {
  /** The run's random id (run.json, run.start): part of every Idempotency-Key it sends. */
  runId: string;
  /** Directory of the pipeline file; relative input paths (images, audio) resolve against it. */
  pipelineDir: string;
  budget: CreditBudget;
  /** Video job ids the run holds (journaled or submitted now): a listed job is adopted once. */
  claimedJobs?: Set<string>;
  /** Probes of media files this run already made (so no file is probed twice). */
  knownProbes?: KnownProbes;
  /** Submit again a re-attached video job that the service no longer knows (a new, paid job). */
  resubmitLostJobs?: boolean;
  /** Gates (`approve:` steps) are approved by the run itself, by "auto" (unattended runs). */
  autoApprove?: boolean;
  /** The other model catalogs known, by profile section (`image_models`, …): requests are checked and priced against them. */
  catalogs?: ModelCatalogs;
  /**
   * Runs another pipeline file as part of this run (chat `pipeline:` tools). `onTotals`
   * receives what the sub-run spent (also when it fails), so the calling step counts it.
   */
  runSubPipeline(
    file: string,
    inputs: Record<string, unknown>,
    options: { signal: AbortSignal; name: string; onTotals?: (totals: RunTotals) => void },
  ): Promise<Record<string, unknown>>;
}

/** The full context the executor passes to `StepKind.run`. */
export type ExecutionContext = StepRunContext & ExecutionExtras;

/**
 * Reads the executor's extras from a step context (undefined when a kind is run by hand).
 * @example const extras = executionExtras(context); const dir = extras?.pipelineDir ?? process.cwd();
 */
export function executionExtras(context: StepRunContext): ExecutionExtras | undefined {
  const extended = context as Partial<ExecutionContext>;
  return extended.budget && typeof extended.runSubPipeline === "function"
    ? (extended as ExecutionExtras)
    : undefined;
}
