import { exactAmount } from "@reelsmith/core/catalog";
import type { PlannedFanOut, RunEstimate, StepEstimate } from "./plan-types.js";

/** What a paid step's estimate is made of. */
export interface StepEstimateOf {
  /** What one unit costs (undefined: no price known). */
  perUnit: number | undefined;
  /** How many units it makes (undefined: not known before the run). */
  count: number | undefined;
  fanOut: PlannedFanOut | undefined;
  /** Units a resumed run already made (they cost nothing more). */
  done: number;
}

/**
 * A paid step's estimate, added to the run's: its credits when its price and size are known,
 * else only the least it will cost is certain (and the run's estimate is not complete).
 * @example const estimate = stepEstimate(runEstimate, "clips", { perUnit: 4, count: 3, fanOut, done: 0 });
 */
export function stepEstimate(
  runEstimate: RunEstimate,
  stepId: string,
  of: StepEstimateOf,
): StepEstimate {
  const { perUnit, count, fanOut, done } = of;
  const units = count === undefined ? undefined : Math.max(0, count - done);
  const atLeast = fanOut?.atLeast === undefined ? undefined : Math.max(0, fanOut.atLeast - done);
  const atMost = fanOut?.atMost === undefined ? undefined : Math.max(0, fanOut.atMost - done);
  // Fields set one by one, in this order (a plan of thousands of steps makes one each).
  const estimate: StepEstimate = {};
  if (perUnit !== undefined) estimate.perUnit = perUnit;
  if (units !== undefined) estimate.units = units;
  if (perUnit !== undefined && units !== undefined) estimate.credits = perUnit * units;
  if (units === undefined && atLeast !== undefined) estimate.unitsAtLeast = atLeast;
  if (units === undefined && atMost !== undefined) estimate.unitsAtMost = atMost;
  if (estimate.credits !== undefined) runEstimate.credits += estimate.credits;
  else {
    // Only the least it will cost is certain.
    if (perUnit !== undefined && atLeast !== undefined) runEstimate.credits += perUnit * atLeast;
    if (perUnit !== 0) runEstimate.complete = false;
  }
  runEstimate.steps[stepId] = estimate;
  return estimate;
}

/**
 * The most a run can cost, when every paid step's price and largest size are known.
 * @example creditsAtMost({ credits: 8, complete: false, steps }) // 20, or undefined
 */
export function creditsAtMost(runEstimate: RunEstimate): number | undefined {
  let most = 0;
  for (const step of Object.values(runEstimate.steps)) {
    if (step.unit !== undefined) continue; // totalled in its own unit
    const credits =
      step.credits ??
      (step.perUnit !== undefined && step.unitsAtMost !== undefined
        ? step.perUnit * step.unitsAtMost
        : undefined);
    if (credits === undefined) return undefined;
    most += credits;
  }
  return most;
}

/**
 * A step whose number of units the plan knew only at run time, or whose price it did not
 * know, once its units are known (its list read from outputs the cache holds): `units` still
 * to make, of which `cached` the cache answers. A priced step's estimate is made exact (the
 * least it counted in the run's certain part replaced by its whole); a step whose every unit
 * the cache answers costs 0 whatever its price. A step priced in another unit is left as it
 * is. Returns whether it changed; the run's completeness is then {@link settleCompleteness}'s.
 * @example settleUnitCount(estimate, estimate.steps.characters, 2, 2) // true: 2 × 4 = 8, then 2 from the cache
 */
export function settleUnitCount(
  runEstimate: RunEstimate,
  step: StepEstimate,
  units: number,
  cached: number,
): boolean {
  if (step.unit !== undefined || step.otherUnits) return false;
  if (step.perUnit !== undefined && step.units === undefined) {
    const least = step.perUnit * (step.unitsAtLeast ?? 0);
    delete step.unitsAtLeast;
    delete step.unitsAtMost;
    step.units = units;
    step.credits = exactAmount(step.perUnit * units);
    runEstimate.credits = exactAmount(runEstimate.credits - least + step.credits);
    return true;
  }
  if (step.perUnit === undefined && step.credits === undefined && cached === units) {
    delete step.unitsAtLeast;
    delete step.unitsAtMost;
    step.units = 0;
    step.cached = cached;
    step.credits = 0;
    return true;
  }
  return false;
}

/**
 * The run's `complete` and `creditsAtMost` worked out again from its steps, as the plan sets
 * them: complete when every paid step's credits are known (a step in another unit counts in
 * that unit's total), else the most it can cost when every step has a largest size.
 * @example settleCompleteness(estimate); estimate.complete // true
 */
export function settleCompleteness(runEstimate: RunEstimate): void {
  runEstimate.complete = Object.values(runEstimate.steps).every(
    (step) => step.credits !== undefined || step.perUnit === 0 || step.unit !== undefined,
  );
  delete runEstimate.creditsAtMost;
  if (runEstimate.complete) return;
  const most = creditsAtMost(runEstimate);
  if (most !== undefined && Number.isFinite(most)) runEstimate.creditsAtMost = most;
}
