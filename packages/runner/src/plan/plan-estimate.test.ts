import { describe, expect, it } from "vitest";
import { settleCompleteness, settleUnitCount } from "./plan-estimate.js";
import type { RunEstimate } from "./plan-types.js";

describe("an estimate settled once a step's units are known", () => {
  it("makes a ranged fan-out exact, prices a step whose every unit is cached at 0, and says the run is complete", () => {
    const estimate: RunEstimate = {
      credits: 16, // keyframes' 12 and the least of the characters (1 × 4)
      complete: false,
      creditsAtMost: 20,
      steps: {
        characters: { perUnit: 4, unitsAtLeast: 1, unitsAtMost: 2 },
        keyframes: { perUnit: 4, units: 3, credits: 12 },
        narration: { units: 3 },
        voice: { perUnit: 0.3, unit: "usd", units: 3, credits: 0.9 },
      },
    };
    expect(settleUnitCount(estimate, estimate.steps.characters ?? {}, 2, 0)).toBe(true);
    expect(estimate.steps.characters).toEqual({ perUnit: 4, units: 2, credits: 8 });
    expect(estimate.credits).toBe(20);
    // A price known only at run time: nothing to say until every unit is the cache's.
    expect(settleUnitCount(estimate, estimate.steps.narration ?? {}, 3, 2)).toBe(false);
    expect(settleUnitCount(estimate, estimate.steps.narration ?? {}, 3, 3)).toBe(true);
    expect(estimate.steps.narration).toEqual({ units: 0, cached: 3, credits: 0 });
    // Already exact, or in another unit: left as it is.
    expect(settleUnitCount(estimate, estimate.steps.keyframes ?? {}, 3, 3)).toBe(false);
    expect(settleUnitCount(estimate, estimate.steps.voice ?? {}, 3, 3)).toBe(false);
    settleCompleteness(estimate);
    expect(estimate.complete).toBe(true);
    expect(estimate.creditsAtMost).toBeUndefined();
  });

  it("keeps the run incomplete, with its most, while a step's size is still a range", () => {
    const estimate: RunEstimate = {
      credits: 4,
      complete: false,
      steps: {
        characters: { perUnit: 4, unitsAtLeast: 1, unitsAtMost: 2 },
        keyframes: { perUnit: 4, units: 0, credits: 0, cached: 3 },
      },
    };
    settleCompleteness(estimate);
    expect(estimate).toMatchObject({ complete: false, creditsAtMost: 8 });
  });
});
