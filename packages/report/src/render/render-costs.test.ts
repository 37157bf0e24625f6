import type { RunTotals } from "@reelsmith/runner";
import { describe, expect, it } from "vitest";
import type { ReportModel } from "../model/report-model.js";
import { renderCosts } from "./render-costs.js";

const totals = (credits: number, otherUnits?: Record<string, number>): RunTotals =>
  ({
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    credits,
    savedCredits: 0,
    made: {},
    jobsSubmitted: 0,
    jobsReattached: 0,
    jobsCached: 0,
    cachedSteps: 0,
    ...(otherUnits ? { otherUnits } : {}),
  }) as RunTotals;

/** A narration whose voices are billed in dollars and whose words are timed in credits. */
function model(estimate: ReportModel["estimate"]): ReportModel {
  return {
    steps: [
      {
        id: "narration",
        kind: "speech",
        fanOut: true,
        items: 2,
        status: "succeeded",
        durationMs: 1200,
        totals: totals(2, { usd: 0.9 }),
        estimate: estimate?.steps.narration,
        subRuns: [],
      },
    ],
    totals: totals(2, { usd: 0.9 }),
    estimate,
  } as unknown as ReportModel;
}

const estimatedCells = (html: string) =>
  [...html.matchAll(/<td class="num estimated">(.*?)<\/td>/g)].map((match) =>
    (match[1] ?? "").replace(/<[^>]+>/g, ""),
  );

describe("the cost table's estimates in other units", () => {
  it("shows a split step's parts in their units beside its credits, and the run's", () => {
    const html = renderCosts(
      model({
        credits: 2,
        complete: true,
        steps: {
          narration: { perUnit: 1, units: 2, credits: 2, otherUnits: { usd: { amount: 0.9 } } },
        },
        otherUnits: { usd: { amount: 0.9, complete: true, models: ["v"], providers: ["p"] } },
      }),
    );
    expect(estimatedCells(html)).toEqual(["2 + 0.9 usd", "2 + 0.9 usd"]);
  });

  it("says a part known per item only, and a total in a unit not known in full", () => {
    const html = renderCosts(
      model({
        credits: 0,
        complete: false,
        steps: { narration: { perUnit: 1, otherUnits: { usd: { perUnit: 0.45 } } } },
        otherUnits: { usd: { amount: 0, complete: false, models: ["v"], providers: ["p"] } },
      }),
    );
    expect(estimatedCells(html)).toEqual(["1/item + 0.45 usd/item", "0+ + 0+ usd"]);
  });
});
