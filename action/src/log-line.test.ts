import { describe, expect, it } from "vitest";
import { logLine } from "./log-line.js";

describe("logLine of a budget stop", () => {
  it("below the budget, says the next price did not fit; at it, what was spent", () => {
    expect(logLine({ type: "budget.reached", credits: 0, maxCredits: 10 })).toBe(
      "credit budget reached: 0 of 10 spent, and the next paid request's price did not fit in the rest; no new paid request",
    );
    expect(logLine({ type: "budget.reached", credits: 10, maxCredits: 10 })).toBe(
      "credit budget reached: 10 of 10; no new video job",
    );
  });
});
