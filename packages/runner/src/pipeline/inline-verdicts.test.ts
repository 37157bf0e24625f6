import { describe, expect, it } from "vitest";
import { objectSource } from "./load-pipeline.js";
import { loadPipeline } from "./validate-pipeline.js";

const pipeline = (model: string) => ({
  name: "again",
  steps: [{ id: "hello", chat: { model, prompt: "Say hello" } }],
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "passed",
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );

describe("an inline pipeline checked again in the same process", () => {
  it("passes again with the same kinds and catalogs, and is checked again with others", async () => {
    const text = pipeline("reel-chat-1");
    // Twice: the second is answered from the first's verdict, with a pipeline of its own.
    const first = await loadPipeline(objectSource(text));
    const second = await loadPipeline(objectSource(text));
    expect(second.hash).toBe(first.hash);
    expect(second).not.toBe(first);
    expect(second.spec.steps[0]?.id).toBe("hello");
    // Other catalogs are another check: the model is unknown to them.
    const elsewhere = { chat_models: [{ id: "other-chat" }] };
    expect(await refusal(loadPipeline(objectSource(text), { catalogs: elsewhere }))).toMatch(
      /^pipeline_invalid: .*/,
    );
    expect(await refusal(loadPipeline(objectSource(text), { catalogs: elsewhere }))).toMatch(
      /^pipeline_invalid: .*/,
    );
  });

  it("refuses a bad text every time (a refusal is never kept as a pass)", async () => {
    const bad = { name: "bad", steps: [{ id: "x", chat: { prompt: 3, model: "reel-chat-1" } }] };
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await refusal(loadPipeline(objectSource(bad)))).toMatch(/^pipeline_invalid: /);
    }
    // A one-character change is a new text, checked on its own.
    const good = await loadPipeline(objectSource(pipeline("reel-chat-1")));
    const changed = { ...pipeline("reel-chat-1"), steps: [{ id: "hello", chat: { prompt: 1 } }] };
    expect(good.spec.name).toBe("again");
    expect(await refusal(loadPipeline(objectSource(changed)))).toMatch(/^pipeline_invalid: /);
  });
});
