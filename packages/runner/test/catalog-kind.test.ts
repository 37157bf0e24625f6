// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { UnknownModelError } from "../src/errors/unknown-model-error.js";
import { validatePipeline } from "../src/pipeline/validate-pipeline.js";
import { planPipeline } from "../src/plan/plan-pipeline.js";
import { runPipeline } from "../src/run-pipeline.js";
import { defineStepKind } from "../src/steps/define-step-kind.js";
import { builtInStepKinds } from "../src/steps/registry.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

/** A kind of this test's own whose models live in a catalog of its own: `voice_models`. */
const voiceKind = defineStepKind<{ model: string; line: string }>({
  kind: "voice",
  schema: Type.Object(
    { model: Type.String(), line: Type.String() },
    { additionalProperties: false },
  ),
  models: [{ field: "model", catalog: "voice_models" }],
  plan: (known, context) => {
    const model = context.catalogs?.voice_models?.find((entry) => entry.id === known.model) as
      | { id: string; creditsPerLine?: number }
      | undefined;
    return {
      requests: { voiceLines: 1 },
      ...(model?.creditsPerLine === undefined ? {} : { credits: model.creditsPerLine }),
    };
  },
  requestLabels: { voiceLines: "voice lines" },
  run: async (spec) => ({ text: spec.line, credits: 0 }),
});

const kinds = [...builtInStepKinds, voiceKind];
const catalogs = { voice_models: [{ id: "studio-voice-a", creditsPerLine: 2 }] };

const pipeline = (model: string) => `name: voices
steps:
  - id: lines
    for_each: [one, two, three]
    voice: { model: ${model}, line: "\${{ item }}" }
`;

describe("a kind's own model catalog, passed in catalogs by its section name (nothing outside the kind names it)", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("is planned: its requests counted under its own name and label, priced from its catalog", async () => {
    const { pipeline: loaded } = await validatePipeline(
      { source: pipeline("studio-voice-a"), path: "p.yaml" },
      { stepKinds: kinds, catalogs },
    );
    if (!loaded) throw new Error("the pipeline did not load");
    const plan = planPipeline(loaded, { stepKinds: kinds, catalogs });
    expect(plan.limits.requests).toEqual({ voiceLines: 3 });
    expect(plan.limits.requestLabels).toEqual({ voiceLines: "voice lines" });
    expect(plan.limits.estimate).toMatchObject({ credits: 6, complete: true });
  });

  it("is checked before anything is paid: an unknown model of its catalog is refused with the closest one", async () => {
    const file = join(service.root, "voices.yaml");
    writeFileSync(file, pipeline("studio-voise-a"));
    const error = await runPipeline(
      file,
      service.options({ stepKinds: kinds, catalogs, cache: false }),
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnknownModelError);
    const unknown = error as UnknownModelError;
    expect(unknown.message).toContain(
      `${file}:5:21: voice model \`studio-voise-a\` is not offered by the service; did you mean \`studio-voice-a\`?`,
    );
    expect(unknown.hint).toContain("voice models: studio-voice-a");
    expect(unknown.unknown).toEqual([
      expect.objectContaining({ catalog: "voice_models", model: "studio-voise-a" }),
    ]);
    // One free request, nothing paid.
    await vi.waitFor(
      () => expect(service.simulator.stats().requests).toEqual({ "GET /v1/models": { "200": 1 } }),
      { timeout: 10_000 },
    );

    // The model its catalog holds runs, though the service does not list it.
    writeFileSync(file, pipeline("studio-voice-a"));
    const result = await runPipeline(
      file,
      service.options({ stepKinds: kinds, catalogs, cache: false }),
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
  });
});
