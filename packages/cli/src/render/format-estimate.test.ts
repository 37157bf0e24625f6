import { describe, expect, it } from "vitest";
import { createEstimateLines, formatEstimate, formatOtherUnits } from "./format-estimate.js";

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

  it("says a step's unit where its price is not known yet, and an amount exactly as the run will", () => {
    const lines = formatEstimate({
      credits: 16,
      complete: false,
      steps: {
        clips: { units: 3, unit: "usd" },
        posters: { perUnit: 0.05, units: 3, credits: 0.15, unit: "usd" },
      },
      otherUnits: {
        usd: { amount: 0.1663968, complete: false, models: ["m"], providers: ["fal"] },
      },
    });
    expect(lines).toEqual([
      "expected cost: at least 16 credits, the rest known at run time",
      "and at least 0.1663968 usd (m, providers.fal), not in credits",
      "  clips    3 × a price in usd known at run time",
      "  posters  3 × 0.05 = 0.15 usd",
    ]);
  });

  it("says an amount in a unit known only at run time so, not 'at least 0'", () => {
    expect(
      formatOtherUnits({
        credits: 0,
        complete: false,
        steps: {},
        otherUnits: { usd: { amount: 0, complete: false, models: ["m"], providers: ["fal"] } },
      }),
    ).toEqual(["and an amount in usd known at run time (m, providers.fal), not in credits"]);
  });
});

describe("createEstimateLines", () => {
  const open = {
    credits: 0,
    complete: false,
    steps: { clips: { perUnit: 9 } },
  };
  const known = {
    credits: 36,
    complete: true,
    steps: { clips: { perUnit: 9, units: 4, credits: 36 } },
  };

  it("prints a run's estimate once, and a later one only when its figures change", () => {
    const lines = createEstimateLines();
    expect(lines(known, 500)).toEqual([
      "expected cost: 36 credits (budget 500)",
      "  clips  4 × 9 = 36",
    ]);
    // The same figures once the storyboard is known: nothing new to say.
    expect(lines(known, 500)).toEqual([]);
    expect(
      lines(
        { ...known, credits: 45, steps: { clips: { perUnit: 9, units: 5, credits: 45 } } },
        500,
      ),
    ).toEqual(["expected cost now: 45 credits (budget 500)", "  clips  5 × 9 = 45"]);
  });

  it("says 'now' of the estimate that follows an open one", () => {
    const lines = createEstimateLines();
    expect(lines(open)[0]).toBe("expected cost: at least 0 credits, the rest known at run time");
    expect(lines(known)[0]).toBe("expected cost now: 36 credits");
  });
});

describe("a step priced partly in credits, partly in another unit", () => {
  it("shows its credits, then its part in the other unit, per item while their number is open", () => {
    const estimate = {
      credits: 2,
      complete: true,
      steps: {
        narration: {
          perUnit: 1,
          units: 2,
          credits: 2,
          otherUnits: { usd: { perUnit: 0.3, amount: 0.6 } },
        },
        voices: { perUnit: 1, otherUnits: { usd: { perUnit: 0.3 } } },
      },
      otherUnits: {
        usd: { amount: 0.6, complete: false, models: ["dollar-voice"], providers: ["voice"] },
      },
    };
    expect(formatEstimate(estimate)).toEqual([
      "expected cost: 2 credits",
      "and at least 0.6 usd (dollar-voice, providers.voice), not in credits",
      "  narration  2 × 1 = 2, and 0.6 usd",
      "  voices     1 per item × N (N known at run time), and 0.3 usd per item",
    ]);
  });
});

describe("a resumed run's estimate", () => {
  it("shows what the earlier sessions spent beside what is left, so the sum reads true", () => {
    const lines = formatEstimate(
      {
        credits: 54,
        complete: true,
        steps: {
          storyboard: { units: 0, credits: 0 },
          clips: { perUnit: 9, units: 2, credits: 54, spent: 36 },
          title: { perUnit: 5, units: 1, credits: 10, spent: 5 },
        },
      },
      500,
    );
    expect(lines).toEqual([
      "expected cost: 54 credits (budget 500)",
      "  clips  36 spent + 2 × 9 = 54",
      "  title  5 spent + 5 = 10",
    ]);
  });
});
