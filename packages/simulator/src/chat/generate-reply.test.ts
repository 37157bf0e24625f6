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

const story =
  "A paper boat leaves a child's hands on a rainy street. It rides the gutter past a sleeping cat. " +
  "It tumbles down a drain into a glowing cave. It comes out on a sunlit lake at dawn.";

describe("plausible replies (the default) and echo replies", () => {
  const titleRequest = (style?: "plausible" | "echo") =>
    generateReply(
      validateChatRequest({
        model: "reel-chat-1",
        messages: [
          { role: "system", content: "You title short films. Answer with the title only." },
          { role: "user", content: `Give this story a short title: ${story}` },
        ],
      }),
      0,
      style,
    ).content;

  it("answers a title request with a short title, not the prompt", () => {
    expect(titleRequest()).toBe("The Paper Boat and the Sunlit Lake");
    expect(titleRequest("plausible")).toBe(titleRequest());
  });

  it("keeps the echo style: the prompt restated, with the system message", () => {
    const echoed = titleRequest("echo") ?? "";
    expect(echoed).toContain("You asked: “Give this story a short title: A paper boat");
    expect(echoed).toContain("You title short films.");
  });

  it("fills a storyboard with scene sentences and short titles, leaving the instruction out", () => {
    const schema = {
      type: "object",
      required: ["scenes"],
      properties: {
        scenes: {
          type: "array",
          items: {
            type: "object",
            required: ["title", "description"],
            properties: { title: { type: "string" }, description: { type: "string" } },
          },
        },
      },
    };
    const request = validateChatRequest({
      model: "reel-chat-1",
      response_format: { type: "json_schema", json_schema: { name: "board", schema } },
      messages: [
        {
          role: "user",
          content: `${story}\n\nSplit the story above into 4 scenes, with one sentence each saying what the camera sees.`,
        },
      ],
    });
    expect(JSON.parse(generateReply(request, 0).content ?? "")).toEqual({
      scenes: [
        {
          title: "The Paper Boat",
          description: "A paper boat leaves a child's hands on a rainy street.",
        },
        { title: "The Sleeping Cat", description: "It rides the gutter past a sleeping cat." },
        { title: "The Glowing Cave", description: "It tumbles down a drain into a glowing cave." },
        { title: "The Sunlit Lake", description: "It comes out on a sunlit lake at dawn." },
      ],
    });
  });

  it("summarises a story from its own sentences and answers other requests without quoting them", () => {
    const summary = generateReply(
      validateChatRequest({
        model: "reel-chat-1",
        messages: [{ role: "user", content: `Summarize this story: ${story}` }],
      }),
      0,
    ).content;
    expect(summary).toBe(
      "A paper boat leaves a child's hands on a rainy street. It comes out on a sunlit lake at dawn.",
    );
    const answer = generateReply(ask({}), 0).content ?? "";
    expect(answer).not.toContain("Plan a picnic by the lake");
    expect(answer).not.toContain("You asked");
    expect(answer).toMatch(/picnic/);
  });
});
