// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { defineStepKind } from "../steps/define-step-kind.js";
import { builtInStepKinds, kindOf, kindsByName } from "../steps/registry.js";
import { validatePipeline } from "./validate-pipeline.js";

const echo = defineStepKind<{ text: string; times?: number }>({
  kind: "echo",
  schema: Type.Object(
    { text: Type.String(), times: Type.Optional(Type.Integer({ minimum: 1 })) },
    { additionalProperties: false },
  ),
  check(spec, context) {
    if (spec.times !== undefined && spec.times > 3)
      context.report(["times"], "echo at most 3 times");
  },
  run: async (spec) => ({ text: spec.text }),
});
const kinds = [...builtInStepKinds, echo];

describe("custom step kinds", () => {
  it("validates their bodies with their own schema and checks", async () => {
    const source =
      "name: custom\nsteps:\n  - id: a\n    echo: { text: hi, times: 5 }\n  - id: b\n    echo: { txt: hi }\n";
    const { diagnostics } = await validatePipeline(
      { source, path: "c.yaml" },
      { stepKinds: kinds },
    );
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      "4:30 echo at most 3 times",
      "6:11 `echo` is missing `text`",
      "6:13 unknown field `txt` in `echo`",
    ]);
  });

  it("accepts them next to the built-ins, and refuses them without the option", async () => {
    const source =
      'name: custom\nsteps:\n  - id: a\n    echo: { text: hi }\n  - id: b\n    chat: { model: reel-chat-1, prompt: "${{ steps.a.outputs.text }}" }\n';
    const withKinds = await validatePipeline({ source, path: "c.yaml" }, { stepKinds: kinds });
    expect(withKinds.diagnostics).toEqual([]);
    const first = withKinds.pipeline?.spec.steps[0] as Record<string, unknown>;
    expect(kindOf(first, kindsByName(kinds))?.kind).toBe("echo");
    const without = await validatePipeline({ source, path: "c.yaml" });
    expect(without.diagnostics.map((d) => d.message)).toContain(
      "unknown field `echo` in item 0 of `steps`",
    );
  });
});
