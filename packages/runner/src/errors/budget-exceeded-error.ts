import { RunnerError } from "./runner-error.js";

/**
 * The credit budget was reached: no new video job is submitted.
 * @example throw new BudgetExceededError(520, 500);
 */
export class BudgetExceededError extends RunnerError {
  readonly credits: number;
  readonly maxCredits: number;
  /** For a fan-out stopped before its first unit: the step, what it needs and what was left. */
  readonly shortfall?: {
    step: string;
    units: number;
    perUnit: number;
    needed: number;
    left: number;
  };
  constructor(
    credits: number,
    maxCredits: number,
    shortfall?: { step: string; units: number; perUnit: number; left: number },
  ) {
    const needed = shortfall ? shortfall.units * shortfall.perUnit : 0;
    super(
      "budget_reached",
      shortfall
        ? `Credit budget too small for "${shortfall.step}": its ${shortfall.units} items need ${needed} credits (${shortfall.units} × ${shortfall.perUnit}), ${shortfall.left} of the budget of ${maxCredits} are left (${credits} spent), so none of them was sent. Resume with a budget of at least ${credits + needed} (--max-credits ${credits + needed}), or allow a part of it with --allow-partial.`
        : credits < maxCredits
          ? `Credit budget reached: ${credits} of max ${maxCredits} credits spent, and the next paid request's price did not fit in the rest (requests in flight hold theirs); it was not sent. Raise max_credits (or --max-credits) and resume the run.`
          : `Credit budget reached: ${credits} of max ${maxCredits} credits spent; no new video job was submitted. Raise max_credits (or --max-credits) and resume the run.`,
      { category: "budget" },
    );
    this.credits = credits;
    this.maxCredits = maxCredits;
    if (shortfall) this.shortfall = { ...shortfall, needed };
  }
}
