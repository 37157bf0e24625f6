import { afterEach, describe, expect, it } from "vitest";
import {
  completionBody,
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import { InvalidRequestError, JSONResponseError } from "../errors/index.js";
import type { ChatCompletionCreateParams } from "./types.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A chat server replying with the given contents in turn. */
async function replies(contents: string[], finish = "stop") {
  const server = await startTestServer((_request, response, _recorded, index) =>
    sendJSON(response, 200, {
      ...completionBody(contents[Math.min(index, contents.length - 1)] ?? ""),
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: contents[Math.min(index, contents.length - 1)] },
          finish_reason: finish,
        },
      ],
    }),
  );
  servers.push(server);
  return { server, client: createClient({ baseURL: server.url, apiKey: testKey }) };
}

const body = (server: TestServer, index: number) =>
  JSON.parse(server.requests[index]!.body) as ChatCompletionCreateParams;

const schema = {
  type: "object",
  required: ["scenes"],
  properties: { scenes: { type: "array", items: { type: "string" }, minItems: 2 } },
  additionalProperties: false,
};

describe("chat.json", () => {
  it("adds a JSON instruction as a system message and sets response_format", async () => {
    const { server, client } = await replies(['{"ok":true}']);
    const result = await client.chat.json<{ ok: boolean }>({
      model: "reel-chat-mini",
      messages: [{ role: "user", content: "Say ok" }],
    });
    expect(result.data).toEqual({ ok: true });
    expect(result.attempts).toBe(1);
    const sent = body(server, 0);
    expect(sent.response_format).toEqual({ type: "json_object" });
    expect(sent.messages[0]?.role).toBe("system");
    expect(String(sent.messages[0]?.content)).toMatch(/JSON/);
    expect(result.messages.at(-1)).toEqual({ role: "assistant", content: '{"ok":true}' });
    expect(result.usage.total_tokens).toBe(15);
  });

  it("appends the instruction (with the schema) to an existing system message", async () => {
    const { server, client } = await replies(['{"scenes":["a","b"]}']);
    await client.chat.json({
      model: "reel-chat-1",
      messages: [
        { role: "system", content: "You are a storyboard artist." },
        { role: "user", content: "Split it" },
      ],
      schema,
    });
    const system = String(body(server, 0).messages[0]?.content);
    expect(system.startsWith("You are a storyboard artist.")).toBe(true);
    expect(system).toContain("JSON Schema");
    expect(system).toContain('"minItems":2');
  });

  it("leaves a system message that already mentions JSON unchanged", async () => {
    const { server, client } = await replies(["{}"]);
    await client.chat.json({
      model: "reel-chat-1",
      messages: [
        { role: "system", content: "Answer in json." },
        { role: "user", content: "x" },
      ],
    });
    expect(body(server, 0).messages).toEqual([
      { role: "system", content: "Answer in json." },
      { role: "user", content: "x" },
    ]);
  });

  it("still sends the schema when the system message already mentions JSON", async () => {
    const { server, client } = await replies(['{"scenes":["a","b"]}']);
    await client.chat.json({
      model: "reel-chat-1",
      messages: [
        { role: "system", content: "Answer in JSON." },
        { role: "user", content: "Split it" },
      ],
      schema,
    });
    const system = String(body(server, 0).messages[0]?.content);
    expect(system.startsWith("Answer in JSON.")).toBe(true);
    expect(system).toContain('"minItems":2');
    expect(body(server, 0).messages).toHaveLength(2);
  });

  it("re-asks quoting the validation errors, then succeeds", async () => {
    const { server, client } = await replies([
      "not json at all",
      '{"scenes":["a"]}',
      '```json\n{"scenes":["a","b"]}\n```',
    ]);
    const result = await client.chat.json<{ scenes: string[] }>({
      model: "reel-chat-1",
      messages: [{ role: "user", content: "Split it" }],
      schema,
    });
    expect(result.data.scenes).toEqual(["a", "b"]);
    expect(result.attempts).toBe(3);
    expect(result.usage).toEqual({ prompt_tokens: 30, completion_tokens: 15, total_tokens: 45 });
    const second = body(server, 1).messages;
    expect(second.at(-2)).toEqual({ role: "assistant", content: "not json at all" });
    expect(String(second.at(-1)?.content)).toMatch(/not valid JSON/);
    const third = body(server, 2).messages;
    expect(String(third.at(-1)?.content)).toContain("/scenes must NOT have fewer than 2 items");
  });

  it("gives up with JSONResponseError carrying raw text, finish_reason, usage and errors", async () => {
    const { server, client } = await replies(['{"scenes":"nope"'], "length");
    const error = await client.chat
      .json({
        model: "reel-chat-1",
        messages: [{ role: "user", content: "x" }],
        schema,
        maxAttempts: 2,
      })
      .catch((caught: unknown) => caught);
    expect(JSONResponseError.isInstance(error)).toBe(true);
    const jsonError = error as JSONResponseError;
    expect(jsonError.rawText).toBe('{"scenes":"nope"');
    expect(jsonError.finishReason).toBe("length");
    expect(jsonError.usage.total_tokens).toBe(30);
    expect(jsonError.attempts).toBe(2);
    expect(jsonError.validationErrors.join(" ")).toMatch(/not valid JSON/);
    expect(jsonError.validationErrors.join(" ")).toMatch(/max_tokens/);
    expect(server.requests).toHaveLength(2);
    expect(jsonError.toJSON()).toMatchObject({
      name: "JSONResponseError",
      code: "json_response_invalid",
      rawText: '{"scenes":"nope"',
    });
  });

  it("rejects an invalid schema before sending anything", async () => {
    const { server, client } = await replies(["{}"]);
    await expect(
      client.chat.json({
        model: "reel-chat-1",
        messages: [{ role: "user", content: "x" }],
        schema: { type: "nope" },
      }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    expect(server.requests).toHaveLength(0);
  });
});
