import { afterEach, describe, expect, it } from "vitest";
import {
  completionBody,
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import { InvalidRequestError } from "../errors/index.js";
import { validateChatParams } from "./validate-chat-params.js";

const user = { role: "user", content: "hi" };
const base = { model: "reel-chat-1", messages: [user] };
const tool = {
  type: "function",
  function: { name: "weather", parameters: { type: "object", properties: {} } },
};

const invalid: [string, Record<string, unknown>][] = [
  ["model", { ...base, model: "" }],
  ["messages", { ...base, messages: [] }],
  ["messages[0].role", { ...base, messages: [{ role: "robot", content: "x" }] }],
  ["messages[0].content", { ...base, messages: [{ role: "user", content: 42 }] }],
  [
    "messages[0].content[0].type",
    { ...base, messages: [{ role: "user", content: [{ type: "audio" }] }] },
  ],
  [
    "messages[0].content[0].text",
    { ...base, messages: [{ role: "user", content: [{ type: "text" }] }] },
  ],
  [
    "messages[0].content[0].image_url.url",
    {
      ...base,
      messages: [
        {
          role: "user",
          content: [{ type: "image_url", image_url: { url: "file:///etc/passwd" } }],
        },
      ],
    },
  ],
  [
    "messages[0].content[0].type",
    {
      ...base,
      messages: [
        { role: "system", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] },
      ],
    },
  ],
  ["messages[1].tool_call_id", { ...base, messages: [user, { role: "tool", content: "42" }] }],
  ["messages[1].content", { ...base, messages: [user, { role: "assistant", content: null }] }],
  ["temperature", { ...base, temperature: 2.5 }],
  ["temperature", { ...base, temperature: -0.1 }],
  ["top_p", { ...base, top_p: 1.5 }],
  ["stop", { ...base, stop: ["a", "b", "c", "d", "e"] }],
  ["stop[0]", { ...base, stop: [""] }],
  ["max_tokens", { ...base, max_tokens: 0 }],
  ["tools", { ...base, tools: {} }],
  ["tools[0].type", { ...base, tools: [{ type: "retrieval" }] }],
  [
    "tools[0].function.name",
    { ...base, tools: [{ type: "function", function: { name: "has space" } }] },
  ],
  ["tools[1].function.name", { ...base, tools: [tool, tool] }],
  [
    "tools[0].function.parameters.type",
    {
      ...base,
      tools: [{ type: "function", function: { name: "a", parameters: { type: "array" } } }],
    },
  ],
  ["tool_choice", { ...base, tool_choice: "sometimes" }],
  [
    "tool_choice.function.name",
    { ...base, tools: [tool], tool_choice: { type: "function", function: { name: "other" } } },
  ],
  ["response_format.type", { ...base, response_format: { type: "yaml" } }],
];

describe("validateChatParams", () => {
  for (const [field, params] of invalid) {
    it(`names ${field}`, () => {
      let caught: unknown;
      try {
        validateChatParams(params);
      } catch (error) {
        caught = error;
      }
      expect(InvalidRequestError.isInstance(caught)).toBe(true);
      expect((caught as InvalidRequestError).field).toBe(field);
      expect((caught as InvalidRequestError).message).toContain(field);
    });
  }

  it("accepts a full valid request", () => {
    expect(() =>
      validateChatParams({
        ...base,
        messages: [
          { role: "system", content: "be brief" },
          {
            role: "user",
            content: [
              { type: "text", text: "what is this" },
              { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
            ],
          },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "c", type: "function", function: { name: "weather", arguments: "{}" } },
            ],
          },
          { role: "tool", tool_call_id: "c", content: "sunny" },
        ],
        temperature: 0,
        top_p: 1,
        stop: ["a", "b", "c", "d"],
        max_tokens: 10,
        tools: [tool],
        tool_choice: { type: "function", function: { name: "weather" } },
        response_format: { type: "json_object" },
      }),
    ).not.toThrow();
  });
});

describe("chat.completions.create validation", () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it("sends nothing when the params are invalid, and returns the completion otherwise", async () => {
    server = await startTestServer((_request, response) =>
      sendJSON(response, 200, completionBody("hello")),
    );
    const client = createClient({ baseURL: server.url, apiKey: testKey });
    await expect(
      client.chat.completions.create({
        model: "reel-chat-1",
        messages: [{ role: "user", content: "x" }],
        temperature: 3,
      }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    expect(server.requests).toHaveLength(0);
    const completion = await client.chat.completions.create({
      model: "reel-chat-1",
      messages: [{ role: "user", content: "x" }],
    });
    expect(completion.choices[0]?.message.content).toBe("hello");
    expect(completion.usage?.total_tokens).toBe(15);
    expect(server.requests[0]?.url).toBe("/v1/chat/completions");
  });
});
