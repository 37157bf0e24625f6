import type { VideoModelCatalog } from "@reelsmith/core";
import {
  type AnyStepKind,
  BudgetEstimateError,
  type LoadedPipeline,
  planPipeline,
  type RunEstimate,
  type StepKindSpec,
} from "@reelsmith/runner";
import type { RunState } from "@reelsmith/runner/internal";

/** What a run's estimate is made from. */
export interface RunEstimateOptions {
  inputs: Record<string, unknown>;
  videoModels?: VideoModelCatalog | undefined;
  stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[] | undefined;
  /** A resumed run's journal: the units it already has cost nothing more. */
  previous?: RunState | undefined;
}

/**
 * What a run is expected to cost before anything is sent, as a local run estimates it: the
 * plan's estimate from the models' prices in the catalog and the fan-outs known now, with a
 * resumed run's finished units counted as paid. (A local run also takes out the units its
 * cache already holds; this estimate does not, so it is never lower than the local one.)
 * @example const estimate = estimateRun(pipeline, { inputs, videoModels }); // { credits: 24, complete: true, steps: {…} }
 */
export function estimateRun(pipeline: LoadedPipeline, options: RunEstimateOptions): RunEstimate {
  const { previous } = options;
  const succeeded = (step: string): number =>
    [...(previous?.steps.get(step)?.items.values() ?? [])].filter(
      (item) => item.status === "succeeded",
    ).length;
  return planPipeline(pipeline, {
    inputs: options.inputs,
    ...(options.videoModels ? { videoModels: options.videoModels } : {}),
    ...(options.stepKinds ? { stepKinds: options.stepKinds } : {}),
    ...(previous ? { journaled: succeeded } : {}),
  }).limits.estimate;
}

/** What a service account's budget has left for a new run. */
export interface AccountBudgetLeft {
  /** The account's maximum. */
  maxCredits: number;
  /** Spent, and reserved by jobs in flight, on every run of the account. */
  committed: number;
}

/**
 * Refuses a run whose certain cost is over its own maximum or over what its service
 * account's budget has left, with the runner's BudgetEstimateError (nothing was sent).
 * @example assertEstimateWithin(estimate, { maxCredits: 10 }); // throws when estimate.credits > 10
 */
export function assertEstimateWithin(
  estimate: RunEstimate,
  limits: { maxCredits?: number | undefined; account?: AccountBudgetLeft | undefined },
): void {
  const { maxCredits, account } = limits;
  if (maxCredits !== undefined && estimate.credits > maxCredits) {
    throw new BudgetEstimateError(estimate, maxCredits);
  }
  if (!account) return;
  const left = Math.max(0, account.maxCredits - account.committed);
  if (estimate.credits <= left) return;
  const error = new BudgetEstimateError(estimate, left);
  // The runner's message names the run's own budget; this one is the account's.
  const cost = error.message.split(", over its budget of")[0];
  if (cost !== error.message) {
    error.message = `${cost}, over the ${left} credits its service account's budget has left (${account.maxCredits} in all, ${account.committed} spent or reserved by its runs); nothing was sent. Raise the account's budget (\`budget\` of submitRun or configureService), or make the run smaller.`;
  }
  throw error;
}
