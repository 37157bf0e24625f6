import type { CacheLocation } from "../cache/cache-index.js";
import { cacheKey } from "../cache/cache-key.js";
import { cacheLocation } from "../cache/step-cache.js";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import type { RunEstimate } from "../plan/plan-types.js";
import type { CreditBudget } from "./budget.js";
import type { ExecuteOptions } from "./execute-pipeline.js";

/** What {@link budgetAdmission} checks a fan-out against. */
export interface BudgetAdmissionOptions {
  /** The run's estimate (each paid step's price per unit). */
  estimate: RunEstimate;
  budget: CreditBudget;
  /** The cache a unit may be served from (its units then cost nothing), and its service. */
  cache?: { location: string | CacheLocation; service: string; pipelineDir: string } | undefined;
  /** Steps whose units are never served from the cache (`cache: false`). */
  uncached?: ReadonlySet<string>;
  /** False: the estimate is refined, but a fan-out is never stopped (`allowPartial`). */
  enforce?: boolean;
  /** Told the run's estimate again once a fan-out's length made it more precise. */
  onEstimate?: (estimate: RunEstimate) => void;
}

/**
 * The executor's `admit` for a budget: once a fan-out's length is known, what its units will
 * certainly cost (its price per unit times the units neither made nor in the cache) is held
 * against what is left of the budget, and the step stops before the first of them is sent
 * when it does not fit (`BudgetExceededError` saying how much is missing and how to go on).
 * The run's estimate is worked out again for that step (`onEstimate`), so every figure shown
 * from then on counts what the fan-out will cost; a run that allows a part of it
 * (`enforce: false`) is never stopped here.
 * @example executePipeline({ …, admit: budgetAdmission({ estimate, budget, onEstimate }) });
 */
export function budgetAdmission(
  options: BudgetAdmissionOptions,
): NonNullable<ExecuteOptions["admit"]> {
  const estimate: RunEstimate = structuredClone(options.estimate);
  return async ({ id, kind, units, specs }) => {
    const max = options.budget.maxCredits;
    const perUnit = estimate.steps[id]?.perUnit;
    if (perUnit === undefined) return;
    let paid = units;
    const policy = kind.cache;
    if (options.cache && policy && !options.uncached?.has(id)) {
      const cache = cacheLocation(options.cache.location);
      for (const spec of specs) {
        const key = await cacheKey(kind.kind, spec, options.cache.pipelineDir, {
          service: options.cache.service,
          ...(policy.ignore ? { ignore: policy.ignore } : {}),
          ...(policy.inputFiles ? { inputFiles: policy.inputFiles } : {}),
        }).catch(() => undefined);
        if (key && (await cache.index.get(key))) paid -= 1;
      }
    }
    refine(estimate, id, { perUnit, units: paid, cached: units - paid });
    options.onEstimate?.(structuredClone(estimate));
    if (max === undefined || options.enforce === false || paid === 0 || perUnit === 0) return;
    const left = (await options.budget.left?.()) ?? Math.max(0, max - options.budget.spent);
    if (paid * perUnit > left) {
      throw new BudgetExceededError(options.budget.spent, max, {
        step: id,
        units: paid,
        perUnit,
        left,
      });
    }
  };
}

/**
 * The steps whose results are never taken from the cache (`cache: false`).
 * @example uncachedSteps({ steps: [{ id: "clips", cache: false }] }) // Set { "clips" }
 */
export function uncachedSteps(spec: {
  steps: readonly { id: string; cache?: unknown }[];
}): Set<string> {
  return new Set(spec.steps.filter((step) => step.cache === false).map((step) => step.id));
}

/** Puts a fan-out's now known size into the run's estimate, and its total and completeness. */
function refine(
  estimate: RunEstimate,
  id: string,
  known: { perUnit: number; units: number; cached: number },
): void {
  estimate.steps[id] = {
    perUnit: known.perUnit,
    units: known.units,
    credits: known.perUnit * known.units,
    ...(known.cached > 0 ? { cached: known.cached } : {}),
  };
  const steps = Object.values(estimate.steps);
  estimate.credits = steps.reduce((sum, step) => sum + (step.credits ?? 0), 0);
  estimate.complete = steps.every((step) => step.credits !== undefined || step.perUnit === 0);
  if (estimate.complete) delete estimate.creditsAtMost;
}
