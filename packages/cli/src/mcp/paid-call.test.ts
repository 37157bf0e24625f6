import { describe, expect, it } from "vitest";
import { grantPaidCall } from "./paid-call.js";
import { createSpendingLimits } from "./spending-limits.js";
import { refusalOf } from "./tool-result.js";

/** The refusal `grantPaidCall` throws for a call, or a failure when it grants it. */
async function refusal(call: Parameters<typeof grantPaidCall>[1], maxCredits: number) {
  const limits = createSpendingLimits({ maxCredits });
  const granted = await grantPaidCall(limits, call, async () => []).then(
    () => undefined,
    (error: unknown) => refusalOf(error),
  );
  if (!granted) throw new Error("the call was granted, not refused");
  return granted;
}

describe("grantPaidCall", () => {
  it("grants a call whose estimate fits, with the ceiling as its budget", async () => {
    const limits = createSpendingLimits({ maxCredits: 30 });
    const grant = await grantPaidCall(
      limits,
      { what: "the run", spent: 0, estimate: 27, complete: true },
      async () => [],
    );
    expect(grant).toMatchObject({ budget: 30, allowance: 30 });
  });

  it("says what a refused call costs: exactly when its estimate is whole, else its least", async () => {
    const whole = await refusal({ what: "the run", spent: 0, estimate: 36, complete: true }, 30);
    expect(whole).toMatchObject({ code: "over_ceiling", estimate: 36, ceiling: 30, spent: 0 });
    expect(whole.message).toBe(
      "the run is expected to cost 36 credits, over the 30 it may spend (the server's ceiling (--max-credits)); nothing was sent",
    );
    const least = await refusal({ what: "the run", spent: 0, estimate: 36 }, 30);
    expect(least.message).toBe(
      "the run is expected to cost at least 36 credits, over the 30 it may spend (the server's ceiling (--max-credits)); nothing was sent",
    );
  });

  it("names the run's own budget when it binds, and measures what is left of it", async () => {
    const own = await refusal(
      { what: "the retake of clips #1", spent: 27, own: 30, estimate: 9, complete: true },
      100,
    );
    expect(own).toMatchObject({ code: "over_budget", budget: 30, spent: 27 });
    expect(own.message).toBe(
      "the retake of clips #1 is expected to cost 9 credits, over the 3 it may spend (the run's own budget (max_credits)); nothing was sent",
    );
  });
});
