import { afterEach, describe, expect, it } from "vitest";
import {
  completionBody,
  pause,
  sendJSON,
  startTestServer,
  type TestServer,
  testKey,
} from "../__fixtures__/test-server.js";
import { createClient } from "../client/create-client.js";
import { APIUserAbortError, ToolRoundsExceededError } from "../errors/index.js";
import type { RunnableTool } from "./run-tools.js";
import type { ChatCompletionCreateParams, ToolCall } from "./types.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function call(id: string, name: string, args: unknown): ToolCall {
  return {
    id,
    type: "function",
    function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
  };
}

/** A chat server: each entry is either tool calls to request or a final text. */
async function script(turns: (ToolCall[] | string)[]) {
  const server = await startTestServer((_request, response, _recorded, index) => {
    const turn = turns[Math.min(index, turns.length - 1)]!;
    const message =
      typeof turn === "string"
        ? { role: "assistant", content: turn }
        : { role: "assistant", content: null, tool_calls: turn };
    sendJSON(response, 200, {
      ...completionBody(null),
      choices: [
        { index: 0, message, finish_reason: typeof turn === "string" ? "stop" : "tool_calls" },
      ],
    });
  });
  servers.push(server);
  return { server, client: createClient({ baseURL: server.url, apiKey: testKey }) };
}

const body = (server: TestServer, index: number) =>
  JSON.parse(server.requests[index]!.body) as ChatCompletionCreateParams;
const objectSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };

describe("chat.runTools", () => {
  it("runs a round's calls in parallel and appends results in call order", async () => {
    const { server, client } = await script([
      [call("c1", "slow", { n: 1 }), call("c2", "fast", { n: 2 })],
      "done",
    ]);
    let running = 0;
    let maxRunning = 0;
    const finished: string[] = [];
    const tool = (name: string, ms: number): RunnableTool => ({
      name,
      description: `${name} tool`,
      parameters: objectSchema,
      async execute(args, context) {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await pause(ms);
        running -= 1;
        finished.push(name);
        return { tool: name, args, callId: context.callId };
      },
    });
    const result = await client.chat.runTools({
      model: "reel-chat-1",
      messages: [{ role: "user", content: "go" }],
      tools: [tool("slow", 40), tool("fast", 1)],
    });
    expect(maxRunning).toBe(2);
    expect(finished).toEqual(["fast", "slow"]);
    expect(result.rounds).toBe(2);
    expect(result.completion.choices[0]?.message.content).toBe("done");
    expect(result.usage.total_tokens).toBe(30);
    const second = body(server, 1);
    expect(second.messages.slice(2)).toEqual([
      {
        role: "tool",
        tool_call_id: "c1",
        content: JSON.stringify({ tool: "slow", args: { n: 1 }, callId: "c1" }),
      },
      {
        role: "tool",
        tool_call_id: "c2",
        content: JSON.stringify({ tool: "fast", args: { n: 2 }, callId: "c2" }),
      },
    ]);
    expect(body(server, 0).tools).toEqual([
      {
        type: "function",
        function: { name: "slow", description: "slow tool", parameters: objectSchema },
      },
      {
        type: "function",
        function: { name: "fast", description: "fast tool", parameters: objectSchema },
      },
    ]);
    expect(result.messages).toHaveLength(5);
  });

  it("returns unknown tools, throwing tools and bad arguments to the model as text", async () => {
    const { server, client } = await script([
      [
        call("a", "nosuch", {}),
        call("b", "boom", { n: 1 }),
        call("c", "boom", "{not json"),
        call("d", "boom", { n: "x" }),
      ],
      "ok",
    ]);
    const boom: RunnableTool = {
      name: "boom",
      parameters: objectSchema,
      execute() {
        throw new Error("disk full");
      },
    };
    await client.chat.runTools({
      model: "reel-chat-1",
      messages: [{ role: "user", content: "go" }],
      tools: [boom],
    });
    const results = body(server, 1)
      .messages.slice(2)
      .map((message) => String(message.content));
    expect(results[0]).toMatch(/unknown tool "nosuch".*boom/);
    expect(results[1]).toBe("Error: disk full");
    expect(results[2]).toMatch(/not valid JSON/);
    expect(results[3]).toMatch(/invalid arguments: \/n must be number/);
  });

  it("throws ToolRoundsExceededError at maxRounds instead of ending silently", async () => {
    const { server, client } = await script([[call("a", "echo", { n: 1 })]]);
    const echo: RunnableTool = { name: "echo", parameters: objectSchema, execute: (args) => args };
    const error = await client.chat
      .runTools({
        model: "reel-chat-1",
        messages: [{ role: "user", content: "go" }],
        tools: [echo],
        maxRounds: 3,
      })
      .catch((caught: unknown) => caught);
    expect(ToolRoundsExceededError.isInstance(error)).toBe(true);
    expect((error as ToolRoundsExceededError).rounds).toBe(3);
    expect((error as ToolRoundsExceededError).messages.at(-1)?.role).toBe("assistant");
    expect(server.requests).toHaveLength(3);
  });

  it("hands the signal to tools and stops with APIUserAbortError when it fires", async () => {
    const { server, client } = await script([[call("a", "wait", { n: 1 })], "never"]);
    const controller = new AbortController();
    const wait: RunnableTool = {
      name: "wait",
      parameters: objectSchema,
      execute: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(new Error("stopped")), { once: true });
          controller.abort();
        }),
    };
    await expect(
      client.chat.runTools(
        { model: "reel-chat-1", messages: [{ role: "user", content: "go" }], tools: [wait] },
        { signal: controller.signal },
      ),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(1);
  });
});
