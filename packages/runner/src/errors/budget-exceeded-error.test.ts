import { describe, expect, it } from "vitest";
import { BudgetExceededError } from "./budget-exceeded-error.js";

describe("BudgetExceededError's message", () => {
  it("below the budget, says the next request's price did not fit beside those in flight", () => {
    // 0 spent of 10 while a 9-credit clip is held: a second clip would pass the budget.
    expect(new BudgetExceededError(0, 10).message).toBe(
      "Credit budget reached: 0 of max 10 credits spent, and the next paid request's price did not fit in the rest (requests in flight hold theirs); it was not sent. Raise max_credits (or --max-credits) and resume the run.",
    );
  });

  it("at or past the budget, says what was spent", () => {
    expect(new BudgetExceededError(10, 10).message).toContain(
      "Credit budget reached: 10 of max 10 credits spent",
    );
  });
});
