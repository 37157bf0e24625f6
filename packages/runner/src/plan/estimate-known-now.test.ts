import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { createFileCacheIndex } from "../cache/file-cache-index.js";
import { requestCacheKey } from "../cache/request-cache-key.js";
import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import { defineStepKind } from "../steps/define-step-kind.js";
import { kindsByName } from "../steps/registry.js";
import { estimateKnownNow } from "./estimate-known-now.js";

// Two kinds of this test's own: a line spoken at 5 to 10 characters a second (1 credit), and
// a shot priced 2 credits a second, at least as long as it is asked.
const say = defineStepKind({
  kind: "say",
  schema: Type.Object({ text: Type.String() }),
  plan: (known) =>
    typeof known.text === "string"
      ? {
          requests: { lines: 1 },
          credits: 1,
          expected: { seconds: { atLeast: known.text.length / 10, atMost: known.text.length / 5 } },
        }
      : { requests: { lines: 1 } },
  run: async () => ({ seconds: 1 }),
  cache: {},
});
const shoot = defineStepKind({
  kind: "shoot",
  schema: Type.Object({ at_least: Type.Number() }),
  plan: (known) => {
    const seconds = Number(known.at_least);
    return Number.isFinite(seconds) && seconds > 0
      ? { requests: { shots: 1 }, credits: 2 * Math.ceil(seconds) }
      : { requests: { shots: 1 } };
  },
  run: async () => ({}),
});
const kinds = kindsByName([say, shoot]);

const spec: PipelineSpec = {
  name: "known-now",
  steps: [
    { id: "lines", for_each: "${{ steps.script.outputs.lines }}", say: { text: "${{ item }}" } },
    {
      id: "shots",
      for_each: "${{ steps.script.outputs.lines }}",
      shoot: { at_least: "${{ steps.lines.outputs[index].seconds }}" },
    },
  ] as PipelineSpec["steps"],
};
const context = {
  inputs: {},
  env: {},
  run: { id: "r", dir: "", name: "known-now" },
  steps: {
    script: { outputs: { lines: ["ten chars.", "twenty characters.."] }, status: "success" },
  },
};

describe("estimateKnownNow", () => {
  it("prices what is known from the outputs made so far, and what reads an output not made yet between its bounds", async () => {
    const estimate = await estimateKnownNow(spec, {
      kinds,
      context,
      steps: new Set(["lines", "shots"]),
    });
    // Lines: known texts, 1 credit each. Shots: 10 chars → 1–2 s → 2–4; 19 chars → 1.9–3.8 s → 4–8.
    expect(estimate.steps.lines).toEqual({ perUnit: 1, units: 2, credits: 2 });
    expect(estimate.steps.shots).toEqual({ units: 2, credits: 6, creditsAtMost: 12 });
    expect(estimate).toMatchObject({ credits: 8, creditsAtMost: 14, complete: false });
  });

  it("says only the least when a list is not made yet", async () => {
    const estimate = await estimateKnownNow(spec, {
      kinds,
      context: { ...context, steps: {} },
      steps: new Set(["lines", "shots"]),
    });
    expect(estimate.complete).toBe(false);
    expect(estimate.creditsAtMost).toBeUndefined();
  });

  it("reads a cached unit's outputs as they are: what depends on them is priced exactly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-known-now-"));
    const service = "https://media.example.com";
    // The first line's result is cached (3 s); the second's is not.
    const key = await requestCacheKey("say", {}, { text: "ten chars." }, dir, { service });
    await createFileCacheIndex(dir).put({
      key,
      kind: "say",
      step: "lines",
      createdAt: "2026-11-28T00:00:00.000Z",
      outputs: { seconds: 3 },
      files: {},
    });
    const estimate = await estimateKnownNow(spec, {
      kinds,
      context,
      steps: new Set(["lines", "shots"]),
      cache: { location: dir, service, pipelineDir: dir },
    });
    expect(estimate.steps.lines).toEqual({ perUnit: 1, units: 1, cached: 1, credits: 1 });
    // Shot 0 at least 3 s: 6; shot 1 as before (19 chars → 1.9–3.8 s): 4–8.
    expect(estimate.steps.shots).toEqual({ units: 2, credits: 10, creditsAtMost: 14 });
  });
});
