import { BudgetExceededError } from "../errors/budget-exceeded-error.js";

/** Credits spent so far against an optional maximum, shared by every video job of a run. */
export interface CreditBudget {
  readonly maxCredits: number | undefined;
  readonly spent: number;
  readonly reached: boolean;
  /** True once a submission was refused because the budget was reached. */
  readonly refused: boolean;
  /** Throws BudgetExceededError when no new job may be submitted. */
  assertCanSubmit(): void;
  /** Adds spent credits; calls `onReached` once when the maximum is reached. */
  spend(credits: number): void;
}

/**
 * Where a sub-pipeline run finds its parent's budget: a run and the sub-pipelines its tools
 * start spend from one budget, so a tool cannot spend what the pipeline's `max_credits` forbids.
 */
export const sharedBudget: unique symbol = Symbol("reelsmith.sharedBudget");

/**
 * Creates a credit budget.
 * @example
 * const budget = createBudget(500, (spent, max) => emit({ type: "budget.reached", credits: spent, maxCredits: max }));
 * budget.assertCanSubmit(); // before each new video job
 */
export function createBudget(
  maxCredits: number | undefined,
  onReached: (spent: number, maxCredits: number) => void,
): CreditBudget {
  let spent = 0;
  let reached = false;
  let refused = false;
  const check = () => {
    if (!reached && maxCredits !== undefined && spent >= maxCredits) {
      reached = true;
      onReached(spent, maxCredits);
    }
  };
  check();
  return {
    maxCredits,
    get spent() {
      return spent;
    },
    get reached() {
      return reached;
    },
    get refused() {
      return refused;
    },
    assertCanSubmit() {
      check();
      if (reached && maxCredits !== undefined) {
        refused = true;
        throw new BudgetExceededError(spent, maxCredits);
      }
    },
    spend(credits) {
      if (Number.isFinite(credits) && credits > 0) spent += credits;
      check();
    },
  };
}
