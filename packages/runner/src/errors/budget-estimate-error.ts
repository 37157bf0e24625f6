import type { RunEstimate } from "../plan/plan-types.js";
import { RunnerError } from "./runner-error.js";

/**
 * A run whose certain cost already exceeds its budget, refused before its first paid
 * request: nothing was sent or paid. The message gives the estimate, step by step.
 * @example throw new BudgetEstimateError(estimate, 5);
 */
export class BudgetEstimateError extends RunnerError {
  readonly estimate: RunEstimate;
  readonly maxCredits: number;
  constructor(estimate: RunEstimate, maxCredits: number) {
    const steps = Object.entries(estimate.steps)
      .filter(([, step]) => step.credits !== undefined && step.credits > 0)
      .map(
        ([id, step]) =>
          `${id}: ${step.units === 1 ? "" : `${step.units} × ${step.perUnit} = `}${step.credits}`,
      );
    super(
      "budget_exceeded_by_estimate",
      `the run is expected to cost at least ${estimate.credits} credits (${steps.join("; ")}), over its budget of ${maxCredits}; nothing was sent. Raise max_credits (or --max-credits), or make the run smaller.`,
    );
    this.estimate = estimate;
    this.maxCredits = maxCredits;
  }
}
