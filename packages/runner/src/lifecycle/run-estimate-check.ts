import type { EstimateCache } from "../cache/request-cache-key.js";
import { BudgetEstimateError } from "../errors/budget-estimate-error.js";
import { PriceUnitError } from "../errors/price-unit-error.js";
import type { RunState } from "../journal/journal-state.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { estimateRun, planRun } from "../plan/estimate-run.js";
import { planPipeline } from "../plan/plan-pipeline.js";
import { planProblems } from "../plan/plan-problems.js";
import type { RunEstimate } from "../plan/plan-types.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";

/** What a run's estimate is worked out from. */
export interface EstimateInputs {
  pipeline: LoadedPipeline;
  inputs: Record<string, unknown>;
  catalogs?: ModelCatalogs | undefined;
  stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[] | undefined;
  previous?: RunState | undefined;
  /** The cache the run uses (units it holds cost nothing); none when the run uses none. */
  cache?: EstimateCache | undefined;
}

/**
 * The run's plan, made once, and its estimate: requests made of inputs are checked against
 * the models' limits before anything is paid (a pipeline with problems is refused), and the
 * estimate counts what a resumed run already has and what the cache holds as free.
 * @example const estimate = await plannedEstimate({ pipeline, inputs, catalogs });
 */
export async function plannedEstimate(given: EstimateInputs): Promise<RunEstimate> {
  const { pipeline } = given;
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
  const plan = planPipeline(given.pipeline, {
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
 * What a run that makes what fits (`allowPartial`) pays at least before it has made something
 * of every paid step: each step's units capped at one (a fan-out's first item; a step whose
 * units are all made or cached, or whose number is known only at run time with no least
 * number, at none). Its `credits` is what such a run is held to before anything is sent.
 * @example leastPartialEstimate({ credits: 18, complete: true, steps: { clips: { perUnit: 9, units: 2, credits: 18 } } }).credits // 9
 */
export function leastPartialEstimate(estimate: RunEstimate): RunEstimate {
  const steps: RunEstimate["steps"] = {};
  for (const [id, step] of Object.entries(estimate.steps)) {
    if (step.perUnit === undefined) {
      if (step.credits !== undefined) steps[id] = { credits: step.credits };
      continue;
    }
    const units = Math.min(1, step.units ?? step.unitsAtLeast ?? 0);
    steps[id] = { perUnit: step.perUnit, units, credits: step.perUnit * units };
  }
  const credits = Object.values(steps).reduce((sum, step) => sum + (step.credits ?? 0), 0);
  return { credits, complete: estimate.complete, steps };
}

/**
 * Refuses, before anything is paid, a run whose certain cost is over its budget, or whose
 * budget is below the price of one unit of a paid step (it would pay for nothing of it). A
 * run that makes what fits (`allowPartial`) is held to the least it pays before it has made
 * something of every paid step ({@link leastPartialEstimate}): its fan-outs then make what
 * the budget pays for and stop `budget_reached`, whether their length is known now or only
 * at run time.
 * @example refuseOverBudget(estimate, 10); // throws BudgetEstimateError when over 10 credits
 */
export function refuseOverBudget(
  estimate: RunEstimate,
  maxCredits: number | undefined,
  options: { allowPartial?: boolean | undefined } = {},
): void {
  if (maxCredits === undefined) return;
  // A budget in credits never silently leaves out a cost in another unit.
  if (estimate.otherUnits && Object.keys(estimate.otherUnits).length > 0)
    throw new PriceUnitError(estimate.otherUnits, maxCredits);
  if (!options.allowPartial && estimate.credits > maxCredits)
    throw new BudgetEstimateError(estimate, maxCredits);
  const overPriced = Object.entries(estimate.steps).find(
    ([, step]) => step.perUnit !== undefined && step.perUnit > maxCredits && step.units !== 0,
  );
  if (overPriced) {
    throw new BudgetEstimateError(estimate, maxCredits, {
      step: overPriced[0],
      perUnit: overPriced[1].perUnit ?? 0,
    });
  }
  if (!options.allowPartial) return;
  const least = leastPartialEstimate(estimate);
  if (least.credits > maxCredits)
    throw new BudgetEstimateError(least, maxCredits, undefined, {
      budget: `counting one item of each fan-out, over its budget of ${maxCredits} even when it makes only what fits`,
      advice: "Raise max_credits (or --max-credits), or make the run smaller.",
    });
}
