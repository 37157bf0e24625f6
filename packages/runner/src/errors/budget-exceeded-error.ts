import { RunnerError } from "./runner-error.js";

/**
 * The credit budget was reached: no new video job is submitted.
 * @example throw new BudgetExceededError(520, 500);
 */
export class BudgetExceededError extends RunnerError {
  readonly credits: number;
  readonly maxCredits: number;
  constructor(credits: number, maxCredits: number) {
    super(
      "budget_reached",
      `Credit budget reached: ${credits} of max ${maxCredits} credits spent; no new video job was submitted. Raise max_credits (or --max-credits) and resume the run.`,
    );
    this.credits = credits;
    this.maxCredits = maxCredits;
  }
}
