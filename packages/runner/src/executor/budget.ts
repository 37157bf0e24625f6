import { BudgetExceededError } from "../errors/budget-exceeded-error.js";

/** A paid request the budget is asked about: its idempotency key and what it asks for. */
export interface BudgetRequest {
  /** The request's idempotency key: a reservation made for it is settled under the same key. */
  key: string;
  /** The video request (model, seconds, size): an executor that reserves credits estimates from it. */
  request: Record<string, unknown>;
}

/**
 * Credits spent so far against an optional maximum, shared by every video job of a run.
 * The in-process budget answers at once; an executor that keeps the budget in a database
 * reserves and settles there (so its methods may return promises: always await them).
 */
export interface CreditBudget {
  readonly maxCredits: number | undefined;
  readonly spent: number;
  readonly reached: boolean;
  /** True once a submission was refused because the budget was reached. */
  readonly refused: boolean;
  /** Throws (or rejects with) BudgetExceededError when no new job may be submitted. */
  assertCanSubmit(submission?: BudgetRequest): void | Promise<void>;
  /** Adds spent credits (settling the submission's reservation, if any). */
  spend(credits: number, submission?: Pick<BudgetRequest, "key">): void | Promise<void>;
}

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
