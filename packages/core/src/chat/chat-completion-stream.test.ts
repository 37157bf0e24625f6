import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { pause, startTestServer, type TestServer, testKey } from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  InternalServerError,
  StreamIdleTimeoutError,
} from "../errors/index.js";
import type { ChatCompletionChunk } from "./types.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type Step = string | Uint8Array | { pause: number } | "destroy" | "stall";

/** A server answering the chat endpoint with SSE made of raw steps. */
async function sseServer(steps: Step[], status = 200) {
  const server = await startTestServer(async (_request, response: ServerResponse) => {
    response.writeHead(status, { "content-type": "text/event-stream", "x-request-id": "req_sse" });
    response.flushHeaders();
    for (const step of steps) {
      if (step === "destroy") {
        response.socket?.destroy();
        return;
      }
      if (step === "stall") return;
      if (typeof step === "object" && "pause" in step) await pause(step.pause);
      else response.write(step);
    }
    response.end();
  });
  servers.push(server);
  return server;
}

function chunk(
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
) {
  return `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "reel-chat-1", choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
}

const params = {
  model: "reel-chat-1",
  messages: [{ role: "user" as const, content: "hi" }],
  stream: true as const,
};

function clientFor(server: TestServer, extra: Record<string, unknown> = {}) {
  return createClient({ baseURL: server.url, apiKey: testKey, retryBaseDelayMs: 1, ...extra });
}

describe("chat.completions.create({ stream: true })", () => {
  it("yields chunks and assembles the final completion", async () => {
    const server = await sseServer([
      chunk({ role: "assistant" }),
      chunk({ content: "Hel" }),
      chunk({ content: "lo" }),
      chunk({}, "stop"),
      "data: [DONE]\n\n",
    ]);
    const stream = await clientFor(server).chat.completions.create(params);
    const texts: string[] = [];
    for await (const part of stream) texts.push(part.choices[0]?.delta.content ?? "");
    expect(texts.join("")).toBe("Hello");
    const completion = await stream.finalCompletion();
    expect(completion.choices[0]?.message).toEqual({ role: "assistant", content: "Hello" });
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(stream.requestId).toBe("req_sse");
    expect(server.requests[0]?.headers.accept).toBe("text/event-stream");
    expect(JSON.parse(server.requests[0]!.body).stream).toBe(true);
  });

  it("finalCompletion() consumes the stream when it was not iterated, with usage", async () => {
    const server = await sseServer([
      chunk({ role: "assistant", content: "A" }),
      chunk({}, "stop"),
      `data: ${JSON.stringify({ id: "c1", choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } })}\n\n`,
      "data: [DONE]\n\n",
    ]);
    const stream = await clientFor(server).chat.completions.create({
      ...params,
      stream_options: { include_usage: true },
    });
    const completion = await stream.finalCompletion();
    expect(completion.usage).toEqual({ prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 });
    expect(completion.choices[0]?.message.content).toBe("A");
    expect(JSON.parse(server.requests[0]!.body).stream_options).toEqual({ include_usage: true });
  });

  it("assembles tool calls from their deltas", async () => {
    const server = await sseServer([
      chunk({ role: "assistant", content: null }),
      chunk({
        tool_calls: [
          {
            index: 0,
            id: "call_a",
            type: "function",
            function: { name: "weather", arguments: "" },
          },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({
        tool_calls: [
          { index: 1, id: "call_b", type: "function", function: { name: "time", arguments: "{}" } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      chunk({}, "tool_calls"),
      "data: [DONE]\n\n",
    ]);
    const completion = await (
      await clientFor(server).chat.completions.create(params)
    ).finalCompletion();
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
    expect(completion.choices[0]?.message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_a",
          type: "function",
          function: { name: "weather", arguments: '{"city":"Oslo"}' },
        },
        { id: "call_b", type: "function", function: { name: "time", arguments: "{}" } },
      ],
    });
  });

  it("handles CRLF, comments, multi-line data and a UTF-8 character split across writes", async () => {
    const body = new TextEncoder().encode(chunk({ content: "caf\u00e9" }).replace(/\n/g, "\r\n"));
    const cut = body.indexOf(0xc3) + 1;
    const server = await sseServer([
      ": keep-alive\r\n\r\n",
      chunk({ role: "assistant" }).replace(/\n/g, "\r\n"),
      body.slice(0, cut),
      { pause: 15 },
      body.slice(cut),
      `data: {"id":"c1","choices":[{"index":0,\ndata: "delta":{"content":"!"},"finish_reason":"stop"}]}\n\n`,
      ": ping\n\n",
      "data: [DONE]\r\n\r\n",
    ]);
    const completion = await (
      await clientFor(server).chat.completions.create(params)
    ).finalCompletion();
    expect(completion.choices[0]?.message.content).toBe("caf\u00e9!");
  });

  it("stops at [DONE] even if the server sends more", async () => {
    const server = await sseServer([
      chunk({ content: "x" }, "stop"),
      "data: [DONE]\n\n",
      chunk({ content: "junk" }),
    ]);
    const stream = await clientFor(server).chat.completions.create(params);
    const seen: ChatCompletionChunk[] = [];
    for await (const part of stream) seen.push(part);
    expect(seen).toHaveLength(1);
    expect((await stream.finalCompletion()).choices[0]?.message.content).toBe("x");
  });

  it("throws an APIError for an error payload mid-stream", async () => {
    const server = await sseServer([
      chunk({ content: "par" }),
      `data: ${JSON.stringify({ error: { message: "model overloaded", type: "server_error", code: "overloaded" } })}\n\n`,
    ]);
    const stream = await clientFor(server).chat.completions.create(params);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const part of stream) seen.push(part.choices[0]?.delta.content ?? "");
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual(["par"]);
    expect(APIError.isInstance(error)).toBe(true);
    expect((error as APIError).code).toBe("overloaded");
    expect((error as APIError).message).toContain("model overloaded");
    expect((error as APIError).requestId).toBe("req_sse");
    await expect(stream.finalCompletion()).rejects.toBe(error);
  });

  it("throws APIConnectionError when the connection drops mid-stream", async () => {
    const server = await sseServer([chunk({ content: "par" }), { pause: 10 }, "destroy"]);
    const stream = await clientFor(server).chat.completions.create(params);
    await expect(stream.finalCompletion()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it("throws APIConnectionError when the body ends before any finish_reason or [DONE]", async () => {
    const server = await sseServer([chunk({ content: "par" })]);
    const stream = await clientFor(server).chat.completions.create(params);
    const error = await stream.finalCompletion().catch((caught: unknown) => caught);
    expect(APIConnectionError.isInstance(error)).toBe(true);
    expect((error as APIConnectionError).code).toBe("stream_incomplete");
  });

  it("ends a stalled stream with StreamIdleTimeoutError", async () => {
    const server = await sseServer([chunk({ content: "par" }), "stall"]);
    const stream = await clientFor(server, { streamIdleTimeoutMs: 80 }).chat.completions.create(
      params,
    );
    const error = await stream.finalCompletion().catch((caught: unknown) => caught);
    expect(StreamIdleTimeoutError.isInstance(error)).toBe(true);
    expect((error as StreamIdleTimeoutError).code).toBe("stream_idle_timeout");
  });

  it("keep-alive comments keep a slow stream alive", async () => {
    const server = await sseServer([
      chunk({ content: "a" }),
      { pause: 150 },
      ": keep-alive\n\n",
      { pause: 150 },
      ": keep-alive\n\n",
      { pause: 150 },
      chunk({ content: "b" }, "stop"),
      "data: [DONE]\n\n",
    ]);
    // 450 ms in all, but never 400 ms of silence.
    const stream = await clientFor(server, { streamIdleTimeoutMs: 400 }).chat.completions.create(
      params,
    );
    expect((await stream.finalCompletion()).choices[0]?.message.content).toBe("ab");
  });

  it("abort() ends the iteration with APIUserAbortError", async () => {
    const server = await sseServer([chunk({ content: "a" }), "stall"]);
    const stream = await clientFor(server).chat.completions.create(params);
    const error = await (async () => {
      for await (const _part of stream) stream.abort();
    })().catch((caught: unknown) => caught);
    expect(APIUserAbortError.isInstance(error)).toBe(true);
  });

  it("the caller's signal aborts a running stream", async () => {
    const server = await sseServer([chunk({ content: "a" }), "stall"]);
    const controller = new AbortController();
    const stream = await clientFor(server).chat.completions.create(params, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 30);
    await expect(stream.finalCompletion()).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it("breaking out early closes the stream; finalCompletion then rejects", async () => {
    const server = await sseServer([chunk({ content: "a" }), chunk({ content: "b" }), "stall"]);
    const stream = await clientFor(server).chat.completions.create(params);
    for await (const _part of stream) break;
    await expect(stream.finalCompletion()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/only once/);
  });

  it("forEachChunk() hands over every chunk the iterator yields and returns the completion", async () => {
    const steps = [
      chunk({ role: "assistant" }),
      chunk({ content: "Hel" }),
      `${chunk({ content: "lo" })}: keep-alive\n\n${chunk({}, "stop")}`,
      chunk({}, null, {
        choices: [],
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      }),
      "data: [DONE]\n\n",
      chunk({ content: "junk" }),
    ];
    const iterated: ChatCompletionChunk[] = [];
    const byIterator = await clientFor(await sseServer(steps)).chat.completions.create(params);
    for await (const part of byIterator) iterated.push(part);
    const handed: ChatCompletionChunk[] = [];
    const stream = await clientFor(await sseServer(steps)).chat.completions.create(params);
    const completion = await stream.forEachChunk((part) => handed.push(part));
    expect(handed).toEqual(iterated);
    expect(handed).toHaveLength(5);
    expect(completion).toEqual(await byIterator.finalCompletion());
    expect(completion.choices[0]?.message.content).toBe("Hello");
    expect(completion.usage?.total_tokens).toBe(3);
    expect(await stream.finalCompletion()).toBe(completion);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/only once/);
  });

  it("forEachChunk() fails as the iterator does: a mid-stream error, a cut body, its callback's own error", async () => {
    const errorServer = await sseServer([
      chunk({ content: "par" }),
      `data: ${JSON.stringify({ error: { message: "model overloaded", code: "overloaded" } })}\n\n`,
    ]);
    const failing = await clientFor(errorServer).chat.completions.create(params);
    const seen: string[] = [];
    const error = await failing
      .forEachChunk((part) => seen.push(part.choices[0]?.delta.content ?? ""))
      .catch((caught: unknown) => caught);
    expect(seen).toEqual(["par"]);
    expect(APIError.isInstance(error)).toBe(true);
    expect((error as APIError).code).toBe("overloaded");
    await expect(failing.finalCompletion()).rejects.toBe(error);

    const cut = await clientFor(
      await sseServer([chunk({ content: "par" })]),
    ).chat.completions.create(params);
    const incomplete = await cut.forEachChunk(() => {}).catch((caught: unknown) => caught);
    expect((incomplete as APIConnectionError).code).toBe("stream_incomplete");

    const stalled = await sseServer([chunk({ content: "a" }), "stall"]);
    const stream = await clientFor(stalled).chat.completions.create(params);
    const mine = new Error("enough");
    await expect(
      stream.forEachChunk(() => {
        throw mine;
      }),
    ).rejects.toBe(mine);
    await expect(stream.finalCompletion()).rejects.toBe(mine);
  });

  it("retries a 503 before the stream starts", async () => {
    const server = await startTestServer((_request, response, _recorded, index) => {
      if (index === 0) {
        response.writeHead(503, { "content-type": "application/json" });
        response.end('{"error":{"message":"busy"}}');
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`${chunk({ content: "ok" }, "stop")}data: [DONE]\n\n`);
    });
    servers.push(server);
    const stream = await clientFor(server).chat.completions.create(params);
    expect((await stream.finalCompletion()).choices[0]?.message.content).toBe("ok");
    expect(server.requests).toHaveLength(2);
    const failing = await sseServer([], 500);
    await expect(
      clientFor(failing, { maxRetries: 0 }).chat.completions.create(params),
    ).rejects.toBeInstanceOf(InternalServerError);
  });
});
