import { describe, expect, it } from "vitest";
import { createBudget } from "../executor/budget.js";
import { budgetAdmission } from "../executor/budget-admission.js";
import { loadPipeline } from "../pipeline/validate-pipeline.js";
import { kindsByName } from "../steps/registry.js";
import { speechKind } from "../steps/speech/index.js";
import { planSpeech } from "../steps/speech/speech-plan.js";
import { videoKind } from "../steps/video/index.js";
import { estimateKnownNow } from "./estimate-known-now.js";
import { planPipeline } from "./plan-pipeline.js";
import { creditCatalogs, partsByUnit } from "./price-units.js";

/**
 * A voice billed in dollars (no rate to credits), its words timed by a transcription priced in
 * credits, and clips in dollars.
 */
const catalogs = {
  speech_models: [{ id: "dollar-voice", price: { per1000Characters: 15 } }],
  transcription_models: [{ id: "stt-1", wordTimestamps: true, price: { perMinute: 1 } }],
  video_models: [{ id: "fal-clip", seconds: [5], price: { perSecond: 0.05 } }],
  price_units: [
    { id: "dollar-voice", provider: "voice", unit: "usd" },
    { id: "fal-clip", provider: "fal", unit: "usd" },
  ],
};
/** 20 characters: 0.3 usd of voice, about 1.3 s of audio (1 credit of transcription). */
const INPUT = "A lighthouse stands!";

describe("a unit priced by models in different units", () => {
  it("the speech kind's plan gives the voice and the transcription as parts, each its model's", () => {
    const planned = planSpeech(
      { model: "dollar-voice", voice: "ava", input: INPUT },
      { catalogs: creditCatalogs(catalogs, "keep") },
    );
    expect(planned.requests).toEqual({ speech: 1, transcriptions: 1 });
    expect(planned.parts).toEqual([
      { model: "dollar-voice", credits: 0.3 },
      { model: "stt-1", credits: 1, creditsRange: { atLeast: 1, atMost: 1 } },
    ]);
  });

  it("splits the parts by unit: credits apart from dollars, never added together", () => {
    const split = partsByUnit(
      catalogs,
      {
        credits: 1.3,
        parts: [
          { model: "dollar-voice", credits: 0.3 },
          { model: "stt-1", credits: 1, creditsRange: { atLeast: 1, atMost: 2 } },
        ],
      },
      "dollar-voice",
    );
    expect(split.inCredits).toBe(true);
    expect(split.credits).toBe(1);
    expect(split.creditsRange).toEqual({ atLeast: 1, atMost: 2 });
    expect(split.otherUnits.usd?.amount).toBe(0.3);
    expect(split.otherUnits.usd?.models.map((model) => model.id)).toEqual(["dollar-voice"]);
    // Without parts, the whole unit is the step model's.
    const whole = partsByUnit(catalogs, { credits: 0.25 }, "fal-clip");
    expect(whole).toMatchObject({ inCredits: false, otherUnits: { usd: { amount: 0.25 } } });
    expect(partsByUnit(catalogs, { credits: 4 }, "img-1")).toEqual({
      inCredits: true,
      credits: 4,
      otherUnits: {},
    });
  });

  it("plans the voice in usd and its transcription in credits", async () => {
    const pipeline = await loadPipeline({
      path: "<inline>",
      source: [
        "name: mixed",
        "steps:",
        "  - id: narration",
        "    for_each: [1, 2]",
        `    speech: { model: dollar-voice, voice: ava, input: ${INPUT} }`,
        "",
      ].join("\n"),
    });
    const { estimate } = planPipeline(pipeline, { catalogs }).limits;
    // Two transcriptions of 1 credit; two voices at 0.3 usd, never in the credits.
    expect(estimate.credits).toBe(2);
    expect(estimate.complete).toBe(true);
    expect(estimate.steps.narration).toEqual({
      perUnit: 1,
      units: 2,
      credits: 2,
      otherUnits: { usd: { perUnit: 0.3, amount: 0.6 } },
    });
    expect(estimate.otherUnits).toEqual({
      usd: { amount: 0.6, complete: true, models: ["dollar-voice"], providers: ["voice"] },
    });
  });

  it("prices the steps behind a gate in credits only, the voice's dollars left out", async () => {
    const pipeline = await loadPipeline({
      path: "<inline>",
      source: [
        "name: gated",
        "steps:",
        "  - id: narration",
        `    speech: { model: dollar-voice, voice: ava, input: ${INPUT} }`,
        "  - id: clip",
        "    video: { model: fal-clip, prompt: the sea, seconds: 5, output: c.mp4 }",
        "",
      ].join("\n"),
    });
    const next = await estimateKnownNow(pipeline.spec, {
      kinds: kindsByName(),
      catalogs,
      context: { inputs: {}, env: {}, steps: {}, run: { id: "r", dir: "", name: "gated" } },
      steps: new Set(["narration", "clip"]),
    });
    expect(next.steps.narration?.credits).toBe(1);
    expect(next.steps.clip?.credits).toBe(0);
    expect(next.credits).toBe(1);
  });

  it("behind a gate, clips in dollars of a length not known yet leave the credits certain", async () => {
    const pipeline = await loadPipeline({
      path: "<inline>",
      source: [
        "name: gated",
        "inputs:",
        "  scenes: { type: array }",
        "steps:",
        "  - id: clips",
        "    for_each: ${{ inputs.scenes }}",
        "    video: { model: fal-clip, prompt: the sea, seconds: 5, output: c.mp4 }",
        "",
      ].join("\n"),
    });
    const planned = planPipeline(pipeline, { catalogs }).limits.estimate;
    const next = await estimateKnownNow(pipeline.spec, {
      kinds: kindsByName(),
      catalogs,
      planned,
      context: { inputs: {}, env: {}, steps: {}, run: { id: "r", dir: "", name: "gated" } },
      steps: new Set(["clips"]),
    });
    expect(next.steps.clips?.unit).toBe("usd");
    expect([next.credits, next.complete]).toEqual([0, true]);
  });
});

describe("budgetAdmission of steps priced in other units", () => {
  const admitted = async (
    source: string,
    step: { id: string; kind: typeof speechKind | typeof videoKind },
    specs: Record<string, unknown>[],
  ) => {
    const pipeline = await loadPipeline({ path: "<inline>", source });
    const { estimate } = planPipeline(pipeline, { catalogs }).limits;
    const told: (typeof estimate)[] = [];
    const admit = budgetAdmission({
      estimate,
      budget: createBudget(undefined, () => {}),
      catalogs: creditCatalogs(catalogs, "keep") ?? {},
      onEstimate: (refined) => told.push(refined),
    });
    await admit({ id: step.id, kind: step.kind as never, units: specs.length, specs });
    return { planned: estimate, refined: told.at(-1) };
  };

  it("once a fan-out's length is known, its total in dollars is known too", async () => {
    const clip = { model: "fal-clip", prompt: "the sea", seconds: 5, output: "c.mp4" };
    const { planned, refined } = await admitted(
      [
        "name: clips",
        "inputs:",
        "  scenes: { type: array }",
        "steps:",
        "  - id: clips",
        "    for_each: ${{ inputs.scenes }}",
        "    video: { model: fal-clip, prompt: the sea, seconds: 5, output: c.mp4 }",
        "",
      ].join("\n"),
      { id: "clips", kind: videoKind },
      [clip, clip, clip],
    );
    expect(planned.otherUnits?.usd).toMatchObject({ amount: 0, complete: false });
    // Only the dollars are unknown: the run spends no credits, and says so as certain.
    expect([planned.credits, planned.complete]).toEqual([0, true]);
    expect(refined?.steps.clips).toEqual({ unit: "usd", perUnit: 0.25, units: 3, credits: 0.75 });
    expect(refined?.otherUnits?.usd).toEqual({
      amount: 0.75,
      complete: true,
      models: ["fal-clip"],
      providers: ["fal"],
    });
    expect(refined?.credits).toBe(0);
    expect(refined?.complete).toBe(true);
  });

  it("a narration fan-out: credits for the words, dollars for the voices", async () => {
    const voice = { model: "dollar-voice", voice: "ava", input: INPUT };
    const { refined } = await admitted(
      [
        "name: narrations",
        "inputs:",
        "  lines: { type: array }",
        "steps:",
        "  - id: narration",
        "    for_each: ${{ inputs.lines }}",
        '    speech: { model: dollar-voice, voice: ava, input: "${{ item }}" }',
        "",
      ].join("\n"),
      { id: "narration", kind: speechKind },
      [voice, { ...voice, input: `${INPUT}${INPUT}` }],
    );
    expect(refined?.steps.narration).toEqual({
      perUnit: 1,
      units: 2,
      credits: 2,
      otherUnits: { usd: { amount: 0.9 } },
    });
    expect(refined?.credits).toBe(2);
    expect(refined?.otherUnits?.usd).toMatchObject({ amount: 0.9, complete: true });
  });
});
