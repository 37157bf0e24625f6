import { describe, expect, it } from "vitest";
import { PriceUnitError } from "../errors/price-unit-error.js";
import { refuseOverBudget } from "../lifecycle/run-estimate-check.js";
import { loadPipeline } from "../pipeline/validate-pipeline.js";
import { planPipeline } from "./plan-pipeline.js";
import { chargeInModelUnit, creditCatalogs, ownUnitCharge, ownUnitOf } from "./price-units.js";

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

  it("passes the unit to the kind's pricing, which keeps cents exact", () => {
    const run = creditCatalogs(catalogs, "drop");
    const units: (string | undefined)[] = [];
    const charge = ownUnitCharge(run, "fal-clip", (_priced, unit) => {
      units.push(unit);
      return 0.1 + 0.2;
    });
    expect(units).toEqual(["usd"]);
    // Floating point's 0.30000000000000004 is not a price.
    expect(charge).toEqual({ usd: 0.3 });
    expect(ownUnitOf(catalogs, "fal-clip")).toBe("usd");
    // A rated unit is priced in credits (its catalog price is converted), the service's too.
    expect(ownUnitOf(catalogs, "voice-1")).toBeUndefined();
    expect(ownUnitOf(catalogs, "img-1")).toBeUndefined();
  });

  it("converts a rated price to credits without floating point noise", () => {
    const rated = {
      image_models: [{ id: "img-usd", price: { perImage: 1.1 } }],
      price_units: [{ id: "img-usd", provider: "fal", unit: "usd", creditsPerUnit: 100 }],
    };
    expect(creditCatalogs(rated, "drop")?.image_models?.[0]).toEqual({
      id: "img-usd",
      price: { perImage: 110 },
    });
  });

  it("counts what a provider reports in its account's unit, never as credits", () => {
    const run = creditCatalogs(catalogs, "drop");
    const price = () => 99;
    // An account in usd with no rate that reports 0.05: 0.05 usd, no credits.
    expect(chargeInModelUnit(run, "fal-clip", 0.05, price)).toEqual({
      credits: 0,
      otherUnits: { usd: 0.05 },
    });
    // At a rate (2 credits a character), what it reports is converted to whole credits.
    expect(chargeInModelUnit(run, "voice-1", 10, price)).toEqual({
      credits: 20,
      creditsFrom: "service",
    });
    // The service's own model: its credits as reported.
    expect(chargeInModelUnit(run, "img-1", 4, price)).toEqual({
      credits: 4,
      creditsFrom: "service",
    });
    // Nothing reported: the kind's price, in credits or in the unit.
    expect(chargeInModelUnit(run, "img-1", undefined, price)).toEqual({
      credits: 99,
      creditsFrom: "price",
    });
    expect(
      chargeInModelUnit(run, "fal-clip", Number.NaN, (_priced, unit) => (unit ? 0.25 : 7)),
    ).toEqual({
      credits: 0,
      otherUnits: { usd: 0.25 },
    });
  });
});

/** Images at fal at $0.05 and a voice at $15 per 1,000 characters, with no rate to credits. */
const cents = {
  image_models: [{ id: "fal-ai/flux/dev", price: { perImage: 0.05 } }],
  speech_models: [{ id: "kokoro", price: { per1000Characters: 15 } }],
  video_models: [
    { id: "fal-clip", seconds: [5], sizes: ["854x480"], price: { perMegapixelSecond: 0.01 } },
  ],
  price_units: [
    { id: "fal-ai/flux/dev", provider: "fal", unit: "usd" },
    { id: "kokoro", provider: "fal", unit: "usd" },
    { id: "fal-clip", provider: "fal", unit: "usd" },
  ],
};

describe("prices in another unit are exact, never rounded up to a whole unit", () => {
  it("plans $0.05 an image as 0.05 usd, a 20-character voice at $15 per 1,000 as 0.3 usd", async () => {
    const pipeline = await loadPipeline({
      path: "<inline>",
      source: [
        "name: cents",
        "steps:",
        "  - id: posters",
        "    for_each: [1, 2, 3]",
        "    image: { model: fal-ai/flux/dev, prompt: a lighthouse }",
        "  - id: tagline",
        "    speech: { model: kokoro, voice: af_heart, input: A lighthouse stands!, words: false }",
        "  - id: clip",
        "    video: { model: fal-clip, prompt: the sea, seconds: 5, size: 854x480, output: c.mp4 }",
        "",
      ].join("\n"),
    });
    const { estimate } = planPipeline(pipeline, { catalogs: cents }).limits;
    expect(estimate.credits).toBe(0);
    expect(estimate.steps.posters).toMatchObject({ unit: "usd", perUnit: 0.05, credits: 0.15 });
    expect(estimate.steps.tagline).toMatchObject({ unit: "usd", perUnit: 0.3, credits: 0.3 });
    // 0.01 × 0.40992 megapixels × 5 s, exact (a credit price by resolution is rounded up).
    expect(estimate.steps.clip).toMatchObject({ unit: "usd", credits: 0.020496 });
    expect(estimate.otherUnits?.usd?.amount).toBe(0.470496);
  });
});
