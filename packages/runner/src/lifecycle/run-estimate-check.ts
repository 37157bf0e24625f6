import type { CacheLocation } from "../cache/cache-index.js";
import { BudgetEstimateError } from "../errors/budget-estimate-error.js";
import type { PipelineForRun } from "../executor/load-for-run.js";
import type { RunState } from "../journal/journal-state.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { estimateRun, planRun } from "../plan/estimate-run.js";
import { planPipeline } from "../plan/plan-pipeline.js";
import { planProblems } from "../plan/plan-problems.js";
import type { RunEstimate } from "../plan/plan-types.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";

/** What a run's estimate is worked out from. */
export interface EstimateInputs {
  pipeline: PipelineForRun;
  inputs: Record<string, unknown>;
  catalogs?: ModelCatalogs | undefined;
  stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[] | undefined;
  previous?: RunState | undefined;
  /** The cache the run uses (units it holds cost nothing); none when the run uses none. */
  cache?: { location: string | CacheLocation; service: string } | undefined;
}

/**
 * The run's plan, made once, and its estimate: requests made of inputs are checked against
 * the models' limits before anything is paid (a pipeline with problems is refused), and the
 * estimate counts what a resumed run already has and what the cache holds as free.
 * @example const estimate = await plannedEstimate({ pipeline, inputs, catalogs });
 */
export async function plannedEstimate(given: EstimateInputs): Promise<RunEstimate> {
  const pipeline = given.pipeline as unknown as LoadedPipeline;
  const options = {
    inputs: given.inputs,
    catalogs: given.catalogs,
    stepKinds: given.stepKinds,
    previous: given.previous,
  };
  const plan = planRun(pipeline, options);
  const refused = planProblems(given.pipeline, plan, given.stepKinds);
  if (refused) throw refused;
  return estimateRun(pipeline, {
    ...options,
    plan,
    ...(given.cache ? { cache: given.cache } : {}),
  });
}

/**
 * What a focused session (a retake, a pick) is expected to cost: one unit of its step when
 * it pays (a retake: never served by the cache), nothing when it does not (a pick).
 * @example focusedEstimate({ pipeline, inputs }, { step: "clips", index: 1 }, true)
 */
export function focusedEstimate(
  given: EstimateInputs,
  focus: { step: string; index?: number },
  paid: boolean,
): RunEstimate {
  if (!paid) return { credits: 0, complete: true, steps: {} };
  const plan = planPipeline(given.pipeline as unknown as LoadedPipeline, {
    inputs: given.inputs,
    ...(given.catalogs ? { catalogs: given.catalogs } : {}),
    ...(given.stepKinds ? { stepKinds: given.stepKinds } : {}),
  });
  const perUnit = plan.limits.estimate.steps[focus.step]?.perUnit;
  if (perUnit === undefined) return { credits: 0, complete: false, steps: {} };
  return {
    credits: perUnit,
    complete: true,
    steps: { [focus.step]: { perUnit, units: 1, credits: perUnit } },
  };
}

/**
 * Refuses, before anything is paid, a run whose certain cost is over its budget, or whose
 * budget is below the price of one unit of a paid step (it would pay for nothing of it).
 * @example refuseOverBudget(estimate, 10); // throws BudgetEstimateError when over 10 credits
 */
export function refuseOverBudget(estimate: RunEstimate, maxCredits: number | undefined): void {
  if (maxCredits === undefined) return;
  if (estimate.credits > maxCredits) throw new BudgetEstimateError(estimate, maxCredits);
  const overPriced = Object.entries(estimate.steps).find(
    ([, step]) => step.perUnit !== undefined && step.perUnit > maxCredits && step.units !== 0,
  );
  if (overPriced) {
    throw new BudgetEstimateError(estimate, maxCredits, {
      step: overPriced[0],
      perUnit: overPriced[1].perUnit ?? 0,
    });
  }
}
