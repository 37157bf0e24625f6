/**
 * @reelsmith/core against an OpenAI-compatible server nobody here wrote: @dwmkerr/mock-llm
 * (npm), a rule-driven express server, started as its own process on a free loopback port.
 *
 * What it does differently from our simulator, and what core does about it:
 * - Its completions carry only what a rule writes: no `created`, no `usage`, no `index` in
 *   `choices`, no `refusal`. Core keeps them optional and reports usage as zero
 *   (`runTools`/`chat.json` add up what is there).
 * - It streams by slicing the whole reply into 50-character pieces: the first chunk carries
 *   `role` and content together, the last content chunk carries `finish_reason: "stop"` (no
 *   separate empty-delta chunk), and no usage chunk even when asked. Core assembles the same
 *   text and a completion without usage.
 * - Tool calls are whatever the rule says; its README's example sends one with no `id`, no
 *   `type` and no `arguments`. Core used to answer such a call with an "arguments are not valid
 *   JSON" error and sent the reply back without a `role` (its message has none) and the result without a
 *   `tool_call_id`; now the reply goes back as `role: "assistant"`, a missing `arguments` means `{}`
 *   and a missing id is made up (`call_<round>_<index>`) and used on both the assistant message
 *   and the tool result. It cannot stream tool calls (its streamer reads `message.content`
 *   only), so the tool loop here is not streamed.
 * - It ignores `Authorization`, `Idempotency-Key` and `response_format`: JSON mode is a rule
 *   that matches `response_format.type`, and the reply is checked by core's schema as usual.
 * - `/v1/models` answers `{ data: [...] }` without `object: "list"`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../src/__fixtures__/test-server.js";
import { createClient, type ReelsmithClient } from "../src/index.js";

const require = createRequire(import.meta.url);
const mockLLM = path.join(
  path.dirname(require.resolve("@dwmkerr/mock-llm/package.json")),
  "dist",
  "main.js",
);

const completion = (message: string) => `{
  "id": "chatcmpl-{{timestamp}}",
  "object": "chat.completion",
  "model": "{{jmes request body.model}}",
  "choices": [{ "message": ${message}, "finish_reason": "stop" }]
}`;

/** Rules: later ones win. Echo, then JSON mode, then a tool call, then the answer after it. */
const config = {
  streaming: { chunkSize: 50, chunkIntervalMs: 1 },
  rules: [
    {
      path: "/v1/chat/completions",
      method: "POST",
      match: "@",
      response: {
        status: 200,
        content: completion(
          '{ "role": "assistant", "content": "You said: {{jmes request body.messages[-1].content}}" }',
        ),
      },
    },
    {
      path: "/v1/chat/completions",
      method: "POST",
      match: "body.response_format.type == 'json_object'",
      response: {
        status: 200,
        content: completion(
          '{ "role": "assistant", "content": "{\\"scenes\\": [{\\"description\\": \\"A fox wakes.\\"}, {\\"description\\": \\"The sun sets.\\"}]}" }',
        ),
      },
    },
    {
      path: "/v1/chat/completions",
      method: "POST",
      match: "body.tools && body.messages[-1].role == 'user'",
      response: {
        status: 200,
        content: `{
          "id": "chatcmpl-tools",
          "object": "chat.completion",
          "model": "{{jmes request body.model}}",
          "choices": [{
            "message": {
              "role": "assistant",
              "content": null,
              "tool_calls": [{ "id": "call_1", "type": "function", "function": { "name": "weather", "arguments": "{\\"city\\": \\"Oslo\\"}" } }]
            },
            "finish_reason": "tool_calls"
          }]
        }`,
      },
    },
    {
      // The tool call of mock-llm's own README: no id, no type, no arguments.
      path: "/v1/chat/completions",
      method: "POST",
      match:
        "body.tools && body.messages[-1].role == 'user' && contains(body.messages[-1].content, 'time')",
      response: {
        status: 200,
        content:
          '{"choices":[{"message":{"tool_calls":[{"function":{"name":"now"}}]},"finish_reason":"tool_calls"}]}',
      },
    },
    {
      path: "/v1/chat/completions",
      method: "POST",
      match: "body.messages[-1].role == 'tool'",
      response: {
        status: 200,
        content: completion(
          '{ "role": "assistant", "content": "The tool said: {{jmes request body.messages[-1].content}} (to {{jmes request body.messages[-2].tool_calls[0].id}}, answered as {{jmes request body.messages[-1].tool_call_id}})" }',
        ),
      },
    },
    {
      path: "/v1/models",
      method: "GET",
      response: {
        status: 200,
        content: '{ "data": [{ "id": "gpt-4o-mini", "object": "model" }] }',
      },
    },
  ],
};

describe("core against @dwmkerr/mock-llm, an independent OpenAI-compatible server", () => {
  let server: ChildProcess;
  let directory: string;
  let client: ReelsmithClient;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "reelsmith-mock-llm-"));
    const file = path.join(directory, "mock-llm.yaml");
    await writeFile(file, JSON.stringify(config)); // JSON is YAML
    const port = await freePort();
    server = spawn(process.execPath, [mockLLM, "--config", file], {
      cwd: directory,
      env: { ...process.env, HOST: "127.0.0.1", PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("server running")) resolve();
      };
      server.stdout?.on("data", onData);
      server.stderr?.on("data", onData);
      server.once("exit", (code) => reject(new Error(`mock-llm exited (${code}): ${output}`)));
    });
    client = createClient({
      baseURL: `http://127.0.0.1:${port}`,
      apiKey: "sk-mock",
      maxRetries: 0,
    });
  });
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill();
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  });

  it("lists models from a list without `object`", async () => {
    expect((await client.models.list()).map((model) => model.id)).toEqual(["gpt-4o-mini"]);
  });

  it("completes a plain chat without usage or created", async () => {
    const reply = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hello there" }],
    });
    expect(reply.choices[0]?.message.content).toBe("You said: hello there");
    expect(reply.choices[0]?.finish_reason).toBe("stop");
    expect(reply.usage).toBeUndefined();
  });

  it("streams: the same text assembled from its 50-character slices", async () => {
    const long = "a sentence long enough to be cut into more than one slice of fifty characters";
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: long }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? "";
    }
    expect(chunks).toBeGreaterThan(1);
    expect(text).toBe(`You said: ${long}`);
    const final = await stream.finalCompletion();
    expect(final.choices[0]?.message.content).toBe(text);
    expect(final.choices[0]?.finish_reason).toBe("stop");
  });

  it("runs a tool loop", async () => {
    const calls: unknown[] = [];
    const result = await client.chat.runTools({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Weather in Oslo?" }],
      tools: [
        {
          name: "weather",
          description: "Current weather for a city",
          parameters: {
            type: "object",
            required: ["city"],
            properties: { city: { type: "string" } },
          },
          execute: async (args: { city: string }) => {
            calls.push(args);
            return `clear in ${args.city}`;
          },
        },
      ],
    });
    expect(calls).toEqual([{ city: "Oslo" }]);
    expect(result.rounds).toBe(2);
    expect(result.completion.choices[0]?.message.content).toBe(
      "The tool said: clear in Oslo (to call_1, answered as call_1)",
    );
    expect(result.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  });

  it("runs a tool call that has no id, type or arguments (mock-llm's README shape)", async () => {
    const result = await client.chat.runTools({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "What time is it?" }],
      tools: [
        {
          name: "now",
          description: "The time",
          parameters: { type: "object", properties: {} },
          execute: async () => "noon",
        },
      ],
    });
    // Core gives the call an id and sends the same one on the assistant message and the result.
    expect(result.completion.choices[0]?.message.content).toBe(
      "The tool said: noon (to call_1_0, answered as call_1_0)",
    );
  });

  it("answers in JSON mode, validated against a schema", async () => {
    const { data } = await client.chat.json<{ scenes: { description: string }[] }>({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Split: a fox wakes. The sun sets." }],
      schema: {
        type: "object",
        required: ["scenes"],
        properties: {
          scenes: {
            type: "array",
            minItems: 2,
            items: {
              type: "object",
              required: ["description"],
              properties: { description: { type: "string" } },
            },
          },
        },
      },
    });
    expect(data.scenes.map((scene) => scene.description)).toEqual([
      "A fox wakes.",
      "The sun sets.",
    ]);
  });
});
