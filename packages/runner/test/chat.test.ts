// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../src/events/run-event.js";
import { runPipeline } from "../src/run-pipeline.js";
import { streamPipeline } from "../src/stream-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

describe("chat steps through streamPipeline", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("streams deltas, parses JSON, counts tokens, and yields every event in order", async () => {
    const run = streamPipeline(
      {
        name: "chat",
        defaults: { chat: { model: "reel-chat-1", temperature: 0.2 } },
        steps: [
          {
            id: "story",
            chat: { prompt: "Tell a two sentence story about a lighthouse.", stream: true },
          },
          {
            id: "facts",
            chat: {
              system: "You extract facts.",
              prompt: "List the places in: ${{ steps.story.outputs.text }}",
              schema: {
                type: "object",
                required: ["places"],
                properties: { places: { type: "array", items: { type: "string" } } },
              },
            },
          },
        ],
        outputs: { places: "${{ steps.facts.outputs.json.places }}" },
      },
      service.options({ cache: false }),
    );
    const events: RunEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const deltas = events
      .filter((e) => e.type === "unit.progress" && e.stage === "text")
      .map((e) => (e.type === "unit.progress" && e.stage === "text" ? e.text : ""));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(
      (result.steps.story?.outputs as { text: string } | undefined)?.text,
    );
    expect(Array.isArray(result.outputs.places)).toBe(true);
    const usage = events.filter((e) => e.type === "unit.progress" && e.stage === "usage");
    expect(usage).toHaveLength(2);
    expect(result.totals.totalTokens).toBe(
      result.totals.promptTokens + result.totals.completionTokens,
    );
    expect(result.totals.totalTokens).toBeGreaterThan(0);
    expect(events[0]?.type).toBe("run.start");
    expect(events.at(-1)?.type).toBe("run.end");
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it("serves repeated chat requests from the cache unless the step says cache: false", async () => {
    const pipeline = {
      name: "cached-chat",
      defaults: { chat: { model: "reel-chat-1" } },
      steps: [
        { id: "kept", chat: { prompt: "Name three rivers." } },
        { id: "fresh", cache: false, chat: { prompt: "Name three mountains." } },
      ],
    };
    const before = service.simulator.stats().chatCompletions;
    const first = await runPipeline(pipeline, service.options());
    const second = await runPipeline(pipeline, service.options());
    expect(second.status).toBe("succeeded");
    expect(service.simulator.stats().chatCompletions - before).toBe(3);
    expect(second.steps.kept).toMatchObject({ cached: true, outputs: first.steps.kept?.outputs });
    expect(second.steps.fresh?.cached).toBe(false);
    expect(second.totals.cachedSteps).toBe(1);
    const third = await runPipeline(pipeline, service.options({ cache: false }));
    expect(third.steps.kept?.cached).toBe(false);
    expect(service.simulator.stats().chatCompletions - before).toBe(5);
  });
});
