import { describe, expect, it } from "vitest";
import { formatEstimate, formatOtherUnits } from "./format-estimate.js";

describe("formatEstimate with prices in other units", () => {
  it("shows credits, then each other unit apart, and the unit of each step priced in one", () => {
    const lines = formatEstimate(
      {
        credits: 62,
        complete: true,
        steps: {
          keyframe: { perUnit: 4, units: 1, credits: 4 },
          clips: { perUnit: 0.25, units: 2, credits: 0.5, unit: "usd" },
          narration: { perUnit: 58, units: 1, credits: 58 },
        },
        otherUnits: {
          usd: { amount: 0.5, complete: true, models: ["fal-clip"], providers: ["fal"] },
        },
      },
      undefined,
    );
    expect(lines).toEqual([
      "expected cost: 62 credits",
      "and 0.5 usd (fal-clip, providers.fal), not in credits",
      "  keyframe   4",
      "  clips      2 × 0.25 = 0.5 usd",
      "  narration  58",
    ]);
  });

  it("says 'at least' of a unit whose total is not complete, without float noise", () => {
    expect(
      formatOtherUnits({
        credits: 0,
        complete: false,
        steps: {},
        otherUnits: {
          usd: {
            amount: 0.1 + 0.2,
            complete: false,
            models: ["a", "b"],
            providers: ["fal", "rep"],
          },
        },
      }),
    ).toEqual(["and at least 0.3 usd (a, b, providers.fal, providers.rep), not in credits"]);
  });
});
