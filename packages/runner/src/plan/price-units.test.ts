import { describe, expect, it } from "vitest";
import { PriceUnitError } from "../errors/price-unit-error.js";
import { refuseOverBudget } from "../lifecycle/run-estimate-check.js";
import { loadPipeline } from "../pipeline/validate-pipeline.js";
import { planPipeline } from "./plan-pipeline.js";
import { creditCatalogs, ownUnitCharge } from "./price-units.js";

/** Keyframes priced in credits, clips at fal in dollars (no rate), a voice in characters (rated). */
const catalogs = {
  image_models: [{ id: "img-1", price: { perImage: 4 } }],
  video_models: [{ id: "fal-clip", seconds: [5, 10], price: { perSecond: 0.05 } }],
  speech_models: [{ id: "voice-1", price: { per1000Characters: 1000 } }],
  price_units: [
    { id: "fal-clip", provider: "fal", unit: "usd" },
    { id: "voice-1", provider: "voice", unit: "characters", creditsPerUnit: 2 },
  ],
};

const pipeline = () =>
  loadPipeline({
    path: "<inline>",
    source: [
      "name: units",
      "steps:",
      "  - id: keyframe",
      "    image: { model: img-1, prompt: a lighthouse }",
      "  - id: clips",
      "    for_each: [1, 2, 3]",
      "    video: { model: fal-clip, prompt: the sea, seconds: 5, output: clip.mp4 }",
      "  - id: narration",
      "    speech: { model: voice-1, voice: ava, input: Ten chars. }",
      "",
    ].join("\n"),
  });

describe("prices in units", () => {
  it("plans a total per unit: credits, rated units in credits, and dollars apart", async () => {
    const plan = planPipeline(await pipeline(), { catalogs });
    const { estimate } = plan.limits;
    // 4 credits of keyframe + 10 characters × 2 credits each; the clips never in credits.
    expect(estimate.credits).toBe(4 + 20);
    expect(estimate.steps.clips).toMatchObject({ unit: "usd", units: 3 });
    expect(estimate.steps.clips?.credits).toBeCloseTo(0.75);
    expect(estimate.otherUnits?.usd).toMatchObject({
      complete: true,
      models: ["fal-clip"],
      providers: ["fal"],
    });
    expect(estimate.otherUnits?.usd?.amount).toBeCloseTo(0.75);
    expect(Object.keys(estimate.otherUnits ?? {})).toEqual(["usd"]);
  });

  it("refuses a credit budget over a model priced in dollars, naming it and what to do", async () => {
    const { estimate } = planPipeline(await pipeline(), { catalogs }).limits;
    expect(() => refuseOverBudget(estimate, 500)).toThrow(PriceUnitError);
    expect(() => refuseOverBudget(estimate, 500)).toThrow(
      "the budget of 500 credits cannot hold `fal-clip` (providers.fal) priced in usd: their cost is not in credits; nothing was sent. State what one unit is worth in credits (credits_per_unit under providers.fal) or run without a credit budget",
    );
    // Without a budget nothing is refused: the plan says the dollars apart.
    expect(() => refuseOverBudget(estimate, undefined)).not.toThrow();
  });

  it("with a rate, counts every price in credits and lets the budget hold it", async () => {
    const rated = {
      ...catalogs,
      price_units: [{ id: "fal-clip", provider: "fal", unit: "usd", creditsPerUnit: 100 }],
    };
    const { estimate } = planPipeline(await pipeline(), { catalogs: rated }).limits;
    expect(estimate.otherUnits).toBeUndefined();
    // 4 + 3 clips × 5 s × 0.05 usd × 100 + 10 characters × 1 credit (no rate: service's unit).
    expect(estimate.credits).toBeCloseTo(4 + 75 + 10);
    expect(() => refuseOverBudget(estimate, 500)).not.toThrow();
  });

  it("drops a price with no rate from the catalogs a run counts credits with", () => {
    const run = creditCatalogs(catalogs, "drop");
    expect(run?.video_models?.[0]).toEqual({ id: "fal-clip", seconds: [5, 10] });
    expect(run?.speech_models?.[0]).toEqual({ id: "voice-1", price: { per1000Characters: 2000 } });
    expect(run?.image_models).toEqual(catalogs.image_models);
  });

  it("prices a charge of a model with no rate in its own unit, from the price it dropped", () => {
    const run = creditCatalogs(catalogs, "drop");
    const perSecond = (priced: typeof run) =>
      ((priced?.video_models?.[0] as { price?: { perSecond: number } })?.price?.perSecond ?? 0) * 5;
    expect(ownUnitCharge(run, "fal-clip", perSecond)).toEqual({ usd: 0.25 });
    // A rated model counts in credits; a model of the service has no other unit.
    expect(ownUnitCharge(run, "voice-1", () => 20)).toBeUndefined();
    expect(ownUnitCharge(run, "img-1", () => 4)).toBeUndefined();
  });
});
