import { describe, expect, it } from "vitest";
import { countTokens, tokenize } from "./count-tokens.js";
import { generateReply } from "./generate-reply.js";
import { validateChatRequest } from "./validate-chat-request.js";

const ask = (body: Record<string, unknown>) =>
  validateChatRequest({
    model: "reel-chat-1",
    messages: [{ role: "user", content: "Plan a picnic by the lake for six friends." }],
    ...body,
  });

describe("generateReply", () => {
  it("is deterministic per request and seed, and varies with the seed", () => {
    expect(generateReply(ask({}), 1)).toEqual(generateReply(ask({}), 1));
    const replies = new Set(
      [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => generateReply(ask({}), seed).content),
    );
    expect(replies.size).toBeGreaterThan(1);
  });

  it("counts about one token a word", () => {
    expect(tokenize("Hello, world.")).toEqual(["Hello", ",", " world", "."]);
    const reply = generateReply(ask({}), 0);
    const words = (reply.content ?? "").split(/\s+/).length;
    expect(reply.usage.completion_tokens).toBe(countTokens(reply.content ?? ""));
    expect(reply.usage.completion_tokens).toBeGreaterThanOrEqual(words);
    expect(reply.usage.completion_tokens).toBeLessThan(words * 2);
    expect(reply.usage.prompt_tokens).toBeGreaterThan(9);
  });

  it("answers tool_choice none in text, and a forced tool even when it does not match", () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "get_time",
          parameters: { type: "object", properties: { zone: { type: "string" } } },
        },
      },
    ];
    expect(generateReply(ask({ tools, tool_choice: "none" }), 0).toolCalls).toEqual([]);
    expect(generateReply(ask({ tools }), 0).toolCalls).toEqual([]);
    const forced = generateReply(
      ask({ tools, tool_choice: { type: "function", function: { name: "get_time" } } }),
      0,
    );
    expect(forced.finishReason).toBe("tool_calls");
    expect(forced.toolCalls[0]?.function.name).toBe("get_time");
    expect(generateReply(ask({ tools, tool_choice: "required" }), 0).toolCalls).toHaveLength(1);
  });

  it("fills a schema given in the system message", () => {
    const schema = {
      type: "object",
      required: ["items"],
      properties: { items: { type: "array", items: { type: "string" } } },
    };
    const request = validateChatRequest({
      model: "reel-chat-mini",
      response_format: { type: "json_object" },
      messages: [
        {
          role: "system",
          content: `Reply in JSON matching this schema: ${JSON.stringify(schema)}`,
        },
        { role: "user", content: "List 2 items: Bread and cheese. A blanket." },
      ],
    });
    expect(JSON.parse(generateReply(request, 0).content ?? "")).toEqual({
      items: ["Bread and cheese.", "A blanket."],
    });
  });
});
