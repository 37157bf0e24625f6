import { describe, expect, it } from "vitest";
import { ChatCompletionAccumulator } from "./accumulate.js";

describe("ChatCompletionAccumulator", () => {
  it("joins split names and ignores a name repeated in every delta", () => {
    const accumulator = new ChatCompletionAccumulator();
    const add = (index: number, fn: { name?: string; arguments?: string }, id?: string) =>
      accumulator.add({
        id: "c",
        choices: [
          { index: 0, delta: { tool_calls: [{ index, ...(id ? { id } : {}), function: fn }] } },
        ],
      });
    add(0, { name: "wea", arguments: "" }, "a");
    add(0, { name: "ther", arguments: '{"x":' });
    add(0, { arguments: "1}" });
    add(1, { name: "time", arguments: "{" }, "b");
    add(1, { name: "time", arguments: "}" }, "b");
    accumulator.add({ id: "c", choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
    expect(accumulator.completion().choices[0]?.message.tool_calls).toEqual([
      { id: "a", type: "function", function: { name: "weather", arguments: '{"x":1}' } },
      { id: "b", type: "function", function: { name: "time", arguments: "{}" } },
    ]);
  });

  it("joins hundreds of content deltas in order, across the pieces it keeps them in", () => {
    const accumulator = new ChatCompletionAccumulator();
    const deltas = Array.from({ length: 300 }, (_, n) => `${n} `);
    for (const content of deltas)
      accumulator.add({ id: "c", choices: [{ index: 0, delta: { content } }] } as never);
    expect(accumulator.completion().choices[0]?.message.content).toBe(deltas.join(""));
    accumulator.add({ id: "c", choices: [{ index: 0, delta: { content: "end" } }] } as never);
    expect(accumulator.completion().choices[0]?.message.content).toBe(`${deltas.join("")}end`);
  });

  it("keeps several choices apart and the last usage", () => {
    const accumulator = new ChatCompletionAccumulator();
    accumulator.add({
      id: "c",
      model: "m",
      created: 5,
      choices: [
        { index: 1, delta: { content: "B" } },
        { index: 0, delta: { content: "A" } },
      ],
    });
    accumulator.add({
      id: "c",
      choices: [
        { index: 0, delta: { content: "a" }, finish_reason: "stop" },
        { index: 1, delta: {}, finish_reason: "length" },
      ],
    });
    accumulator.add({
      id: "c",
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    });
    const completion = accumulator.completion();
    expect(completion).toMatchObject({
      id: "c",
      object: "chat.completion",
      model: "m",
      created: 5,
    });
    expect(
      completion.choices.map((choice) => [
        choice.index,
        choice.message.content,
        choice.finish_reason,
      ]),
    ).toEqual([
      [0, "Aa", "stop"],
      [1, "B", "length"],
    ]);
    expect(completion.usage?.total_tokens).toBe(3);
  });
});
