import { describe, expect, it } from "vitest";
import { parsePipeline, toLoadedPipeline } from "../pipeline/load-pipeline.js";
import { runBudget, runToPlay } from "./run-to-play.js";

describe("runBudget: one rule for every host", () => {
  it("takes the caller's maximum first", () => {
    expect(runBudget({ given: 5, startedWith: 12, pipeline: 50 })).toBe(5);
  });

  it("keeps the budget the run started with when the caller gives none (a resume)", () => {
    expect(runBudget({ startedWith: 12, pipeline: 50 })).toBe(12);
  });

  it("falls back to the pipeline's max_credits", () => {
    expect(runBudget({ pipeline: 50 })).toBe(50);
    // A journaled value that is not a number is not a budget.
    expect(runBudget({ startedWith: "12", pipeline: 50 })).toBe(50);
  });

  it("a caller's 0 is a budget of nothing, not a missing one", () => {
    expect(runBudget({ given: 0, startedWith: 12, pipeline: 50 })).toBe(0);
    expect(runBudget({ startedWith: 0, pipeline: 50 })).toBe(0);
  });

  it("is none when nothing sets one", () => {
    expect(runBudget({})).toBeUndefined();
  });
});

const source = "name: film\nmax_credits: 40\nsteps:\n  - id: hello\n    chat:\n      prompt: hi\n";
const pipeline = toLoadedPipeline(await parsePipeline({ source, path: "/nowhere/film.yaml" }));
const base = {
  pipeline,
  inputs: {},
  runId: "r1",
  startedAt: "2026-01-01T00:00:00.000Z",
  journaled: {},
  kinds: new Map(),
};

describe("runToPlay", () => {
  it("plays with the budget of the rule and journals only the caller's", () => {
    const started = runToPlay({ ...base, startedWith: 12 });
    expect(started.budgetMax).toBe(12);
    expect(started.maxCredits).toBeUndefined();
    expect(runToPlay(base).budgetMax).toBe(40);
    const given = runToPlay({ ...base, maxCredits: 3, startedWith: 12 });
    expect([given.budgetMax, given.maxCredits]).toEqual([3, 3]);
  });

  it("names the run after its pipeline, estimates it, and places its steps", () => {
    const run = runToPlay(base);
    expect(run.name).toBe("film");
    expect(run.estimate).toBe(true);
    expect(runToPlay({ ...base, estimate: false }).estimate).toBe(false);
    expect(run.locate?.("hello")).toBe("/nowhere/film.yaml:4:5");
    expect(run.locate?.("missing")).toBeUndefined();
  });
});
