// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../src/pipeline/diagnostic.js";
import { validatePipeline } from "../src/pipeline/validate-pipeline.js";
import { planPipeline } from "../src/plan/plan-pipeline.js";
import { runPipeline } from "../src/run-pipeline.js";
import { builtInStepKinds } from "../src/steps/registry.js";
import { shoutKind } from "./fixtures/shout-kind/index.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const kinds = [...builtInStepKinds, shoutKind];

const pipeline = `name: shouting
steps:
  - id: loud
    for_each: [hello, world]
    shout: { text: "\${{ item }}", times: 2 }
  - id: tell
    chat: { model: reel-chat-1, prompt: "Repeat: \${{ steps.loud.outputs[0].text }}" }
outputs:
  first: \${{ steps.loud.outputs[0].text }}
`;

describe("a step kind defined outside the runner (one folder, no other file touched)", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("is validated with its own schema, checks and output types", async () => {
    const valid = await validatePipeline(
      { source: pipeline, path: "p.yaml" },
      { stepKinds: kinds },
    );
    expect(valid.diagnostics.map(formatDiagnostic)).toEqual([]);
    const bad = await validatePipeline(
      {
        source:
          'name: bad\nsteps:\n  - id: a\n    shout: { text: hi, times: 9, loud: true }\n  - id: b\n    shout: { text: "${{ steps.a.outputs.txt }}" }\n',
        path: "bad.yaml",
      },
      { stepKinds: kinds },
    );
    expect(bad.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      "4:31 shout at most 3 times",
      "4:34 unknown field `loud` in `shout`",
      "6:21 step `a` (shout) has no output `txt`",
    ]);
    // Without the kind, the pipeline is refused: the runner knows no `shout`.
    const without = await validatePipeline({ source: pipeline, path: "p.yaml" });
    expect(without.pipeline).toBeUndefined();
  });

  it("is planned: its fan-out and what it asks of the service (nothing)", async () => {
    const { pipeline: loaded } = await validatePipeline(
      { source: pipeline, path: "p.yaml" },
      { stepKinds: kinds },
    );
    const plan = planPipeline(loaded!, { stepKinds: kinds });
    expect(plan.steps.map((step) => [step.id, step.kind, step.fanOut?.items])).toEqual([
      ["loud", "shout", 2],
      ["tell", "chat", undefined],
    ]);
    // Its own kind counts nothing; the chat step one request.
    expect(plan.limits.requests).toEqual({ chatRequests: 1 });
  });

  it("runs locally, its outputs read by the next step and by the pipeline's outputs", async () => {
    const result = await runPipeline(
      {
        name: "shouting",
        steps: [
          { id: "loud", for_each: ["hello", "world"], shout: { text: "${{ item }}", times: 2 } },
          {
            id: "tell",
            chat: { model: "reel-chat-1", prompt: "Repeat: ${{ steps.loud.outputs[0].text }}" },
          },
        ],
        outputs: { first: "${{ steps.loud.outputs[0].text }}" },
      },
      service.options({ stepKinds: kinds, cache: false }),
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    expect(result.outputs.first).toBe("HELLO HELLO");
    expect(((result.steps.loud?.outputs ?? []) as { text: string }[]).map((o) => o.text)).toEqual([
      "HELLO HELLO",
      "WORLD WORLD",
    ]);
    expect(result.steps.tell?.status).toBe("succeeded");
  });

  it("is refused at run time with its own checks, before anything is sent", async () => {
    const before = service.simulator.stats().chatCompletions;
    await expect(
      runPipeline(
        {
          name: "loud",
          steps: [
            { id: "a", shout: { text: "hi", times: 9 } },
            { id: "b", chat: { model: "reel-chat-1", prompt: "x" } },
          ],
        },
        service.options({ stepKinds: kinds }),
      ),
    ).rejects.toThrow(/shout at most 3 times/);
    expect(service.simulator.stats().chatCompletions).toBe(before);
  });
});
