import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { call, sseData } from "./helpers.js";

const messages = [
  { role: "user", content: "Describe a lighthouse on a stormy night. Keep it vivid." },
];

describe("chat streaming (raw SSE)", () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator({ chunkDelayMs: 0 });
  });
  afterAll(() => simulator.close());

  it("sends a role chunk, several content chunks, an empty-delta finish chunk, usage, then [DONE]", async () => {
    const response = await call(simulator, "/v1/chat/completions", {
      body: {
        model: "reel-chat-1",
        messages,
        stream: true,
        stream_options: { include_usage: true },
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const data = sseData(await response.text());
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((text) => JSON.parse(text));
    const ids = new Set(chunks.map((chunk) => chunk.id));
    expect(ids.size).toBe(1);
    expect(chunks[0].object).toBe("chat.completion.chunk");
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    const usageChunk = chunks.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
    });
    expect(usageChunk.usage.total_tokens).toBe(
      usageChunk.usage.prompt_tokens + usageChunk.usage.completion_tokens,
    );
    const finish = chunks.at(-2);
    expect(finish.choices[0].delta).toEqual({});
    expect(finish.choices[0].finish_reason).toBe("stop");
    const content = chunks.slice(1, -2).map((chunk) => chunk.choices[0].delta.content as string);
    expect(content.length).toBeGreaterThan(3);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.usage).toBeNull();

    const plain = await call(simulator, "/v1/chat/completions", {
      body: { model: "reel-chat-1", messages },
    });
    const completion = (await plain.json()) as {
      choices: { message: { content: string } }[];
      usage: { completion_tokens: number };
    };
    expect(content.join("")).toBe(completion.choices[0]?.message.content);
    expect(usageChunk.usage.completion_tokens).toBe(completion.usage.completion_tokens);
  });

  it("omits usage without include_usage and streams tool calls as tool_calls deltas", async () => {
    const response = await call(simulator, "/v1/chat/completions", {
      body: {
        model: "reel-chat-1",
        stream: true,
        messages: [
          { role: "user", content: "Please look up the weather forecast for Lisbon tomorrow." },
        ],
        tools: [
          {
            type: "function",
            function: {
              name: "play_music",
              description: "Play a song",
              parameters: { type: "object", properties: { song: { type: "string" } } },
            },
          },
          {
            type: "function",
            function: {
              name: "get_forecast",
              description: "Weather forecast for a city",
              parameters: {
                type: "object",
                properties: {
                  city: { type: "string" },
                  days: { type: "integer", minimum: 1, maximum: 7 },
                },
                required: ["city", "days"],
              },
            },
          },
        ],
      },
    });
    const data = sseData(await response.text());
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((text) => JSON.parse(text));
    expect(chunks.every((chunk) => !("usage" in chunk))).toBe(true);
    expect(chunks[0].choices[0].delta).toMatchObject({ role: "assistant", content: null });
    const deltas = chunks.flatMap((chunk) => chunk.choices[0].delta.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({
      index: 0,
      id: expect.stringMatching(/^call_/),
      type: "function",
      function: { name: "get_forecast", arguments: "" },
    });
    expect(deltas.length).toBeGreaterThan(2);
    const args = JSON.parse(deltas.map((delta) => delta.function.arguments).join(""));
    expect(args.city).toBe("Lisbon");
    expect(args.days).toBeGreaterThanOrEqual(1);
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
  });

  it("cuts at max_tokens with finish_reason length, and at stop sequences", async () => {
    const long = await call(simulator, "/v1/chat/completions", {
      body: { model: "reel-chat-1", messages, max_tokens: 5 },
    });
    const cut = (await long.json()) as {
      choices: { message: { content: string }; finish_reason: string }[];
      usage: { completion_tokens: number };
    };
    expect(cut.choices[0]?.finish_reason).toBe("length");
    expect(cut.usage.completion_tokens).toBe(5);
    const full = (await (
      await call(simulator, "/v1/chat/completions", { body: { model: "reel-chat-1", messages } })
    ).json()) as {
      choices: { message: { content: string } }[];
    };
    const text = full.choices[0]?.message.content ?? "";
    expect(text.startsWith(cut.choices[0]?.message.content ?? "?")).toBe(true);
    const stop = text.split(" ")[3] ?? "";
    const stopped = (await (
      await call(simulator, "/v1/chat/completions", {
        body: { model: "reel-chat-1", messages, stop: [stop, "zzzz"] },
      })
    ).json()) as { choices: { message: { content: string }; finish_reason: string }[] };
    expect(stopped.choices[0]?.finish_reason).toBe("stop");
    expect(stopped.choices[0]?.message.content).toBe(text.slice(0, text.indexOf(stop)));
  });
});

describe("the deterministic model", () => {
  const body = (extra: Record<string, unknown> = {}) => ({
    model: "reel-chat-1",
    messages,
    ...extra,
  });
  async function reply(simulator: Simulator, request: Record<string, unknown>): Promise<string> {
    const response = await call(simulator, "/v1/chat/completions", { body: request });
    return (
      ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]
        ?.message.content ?? ""
    );
  }

  it("gives the same reply to the same request and seed, across simulators", async () => {
    const first = await startSimulator({ seed: 7 });
    const second = await startSimulator({ seed: 7 });
    try {
      const a = await reply(first, body());
      expect(await reply(first, body())).toBe(a);
      expect(await reply(second, body())).toBe(a);
      const seeds = new Set<string>();
      for (const seed of [1, 2, 3, 4, 5, 6]) seeds.add(await reply(first, body({ seed })));
      expect(seeds.size).toBeGreaterThan(1);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("depends on the whole conversation, not only the last message", async () => {
    const simulator = await startSimulator();
    try {
      const last = { role: "user", content: "And what about the keeper?" };
      const a = await reply(simulator, {
        model: "reel-chat-1",
        messages: [
          { role: "user", content: "Tell me about lighthouses." },
          { role: "assistant", content: "They guide ships." },
          last,
        ],
      });
      const b = await reply(simulator, {
        model: "reel-chat-1",
        messages: [
          { role: "user", content: "Tell me about windmills." },
          { role: "assistant", content: "They grind grain." },
          last,
        ],
      });
      expect(a).not.toBe(b);
      expect(a).toContain("lighthouses");
      expect(b).toContain("windmills");
    } finally {
      await simulator.close();
    }
  });
});
