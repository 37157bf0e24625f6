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
  /**
   * `over` names a budget other than the run's own (a host's limit, such as its service
   * account's), and what to do about it.
   */
  constructor(
    estimate: RunEstimate,
    maxCredits: number,
    unit?: { step: string; perUnit: number },
    over?: { budget: string; advice: string },
  ) {
    // Its whole cost, when every paid step's is known (another budget's figure may be a least).
    const certain = estimate.complete && over === undefined;
    const steps = Object.entries(estimate.steps).flatMap(([id, step]) => {
      if (step.credits !== undefined && step.credits > 0)
        return [
          `${id}: ${step.units === 1 ? "" : `${step.units} × ${step.perUnit} = `}${step.credits}`,
        ];
      if (step.perUnit && step.unitsAtLeast)
        return [
          `${id}: at least ${step.unitsAtLeast} × ${step.perUnit} = ${step.perUnit * step.unitsAtLeast}`,
        ];
      return [];
    });
    super(
      "budget_exceeded_by_estimate",
      unit
        ? `one item of "${unit.step}" is expected to cost ${unit.perUnit} credits, over the run's whole budget of ${maxCredits}; nothing was sent. Raise max_credits (or --max-credits) to at least ${unit.perUnit}.`
        : `the run is expected to cost ${certain ? "" : "at least "}${estimate.credits} credits (${steps.join("; ")}), ${over?.budget ?? `over its budget of ${maxCredits}`}; nothing was sent. ${over?.advice ?? "Raise max_credits (or --max-credits), or make the run smaller."}`,
      // Refused before anything was sent, like an invalid pipeline (not a run stopped at its budget).
      { category: "invalid" },
    );
    this.estimate = estimate;
    this.maxCredits = maxCredits;
  }
}
