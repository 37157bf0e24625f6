import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { call } from "./helpers.js";

describe("protocol over loopback", () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator({ timeScale: 0.01, maxBodyBytes: 64 * 1024 });
  });
  afterAll(() => simulator.close());

  it("binds to loopback with a random key when none is given", async () => {
    expect(simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(simulator.apiKey).toMatch(/^sk-sim-.{20,}$/);
    const other = await startSimulator();
    try {
      expect(other.apiKey).not.toBe(simulator.apiKey);
      expect(other.url).not.toBe(simulator.url);
    } finally {
      await other.close();
    }
  });

  it("answers 401 without or with a wrong key, on every route, without echoing the key", async () => {
    for (const path of ["/v1/models", "/v1/videos/video_x", "/_simulator/stats", "/v1/nothing"]) {
      const missing = await fetch(`${simulator.url}${path}`);
      expect(missing.status).toBe(401);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe(
        "missing_api_key",
      );
    }
    const wrong = await fetch(`${simulator.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-wrong-key-123", "content-type": "application/json" },
      body: "{}",
    });
    expect(wrong.status).toBe(401);
    const text = await wrong.text();
    expect(text).not.toContain("sk-wrong-key-123");
    expect(JSON.parse(text)).toEqual({
      error: {
        message: expect.any(String),
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    });
  });

  it("answers 404 for unknown routes and ids, 405 with Allow for wrong methods", async () => {
    const route = await call(simulator, "/v1/engines");
    expect(route.status).toBe(404);
    expect(((await route.json()) as { error: { code: string } }).error.code).toBe("unknown_url");
    const job = await call(simulator, "/v1/videos/video_missing");
    expect(job.status).toBe(404);
    expect(((await job.json()) as { error: { param: string } }).error.param).toBe("video_id");
    const content = await call(simulator, "/v1/videos/video_missing/content");
    expect(content.status).toBe(404);
    const method = await call(simulator, "/v1/chat/completions");
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("POST");
    const put = await call(simulator, "/v1/videos", { method: "PUT", body: {} });
    expect(put.status).toBe(405);
  });

  it("answers 413 past the body limit and 400 for bodies that are not JSON objects", async () => {
    const big = await call(simulator, "/v1/chat/completions", {
      body: { model: "reel-chat-1", padding: "x".repeat(70 * 1024) },
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe(
      "request_too_large",
    );
    const chunked = await fetch(`${simulator.url}/v1/videos`, {
      method: "POST",
      headers: { authorization: `Bearer ${simulator.apiKey}`, "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (let index = 0; index < 10; index += 1)
            controller.enqueue(new TextEncoder().encode(" ".repeat(16 * 1024)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const broken = await call(simulator, "/v1/chat/completions", { body: "{not json" });
    expect(broken.status).toBe(400);
    const array = await call(simulator, "/v1/videos", { body: "[1,2]" });
    expect(array.status).toBe(400);
    const form = await call(simulator, "/v1/videos", {
      body: "a=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
  });

  it("lists every model it serves in the OpenAI list shape, each with its type and limits, and retrieves one", async () => {
    const response = await call(simulator, "/v1/models");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const list = (await response.json()) as {
      object: string;
      data: { id: string; object: string; owned_by: string; created: number; type?: string }[];
    };
    expect(list.object).toBe("list");
    expect(list.data.map((model) => model.id)).toEqual([
      "reel-chat-1",
      "reel-chat-mini",
      "reel-video-1",
      "reel-video-2-lite",
      "reel-video-3-long",
      "reel-image-1",
      "reel-voice-1",
      "reel-transcribe-1",
    ]);
    // Video models carry their limits, as a profile writes a video model.
    expect(list.data.find((model) => model.id === "reel-video-2-lite")).toMatchObject({
      type: "video",
      video: { seconds: { min: 1, max: 8 }, image: true },
    });
    const typeOf = Object.fromEntries(list.data.map((model) => [model.id, model.type]));
    expect(typeOf).toEqual({
      "reel-chat-1": "chat",
      "reel-chat-mini": "chat",
      "reel-video-1": "video",
      "reel-video-2-lite": "video",
      "reel-video-3-long": "video",
      "reel-image-1": "image",
      "reel-voice-1": "speech",
      "reel-transcribe-1": "transcription",
    });
    // Image, speech and transcription models carry their limits in a profile's words.
    expect(list.data.find((model) => model.id === "reel-image-1")).toMatchObject({
      image: {
        sizes: ["1024x1024", "1536x1024", "1024x1536", "512x512", "256x256"],
        max_references: 4,
        max_images: 4,
        price: { per_image: 4 },
      },
    });
    expect(list.data.find((model) => model.id === "reel-voice-1")).toMatchObject({
      speech: {
        voices: [
          ...["ava", "rowan", "angus", "kal"],
          ...["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage"],
          ...["shimmer", "verse"],
        ],
        formats: ["mp3", "wav", "pcm"],
        price: { per_1000_characters: 15 },
      },
    });
    expect(list.data.find((model) => model.id === "reel-transcribe-1")).toMatchObject({
      transcription: {
        word_timestamps: true,
        granularities: ["segment", "word"],
        formats: ["json", "verbose_json", "text", "srt", "vtt"],
        price: { per_minute: 6 },
      },
    });
    const strict = await startSimulator({ listVideoModels: false });
    try {
      const chatOnly = (await (await call(strict, "/v1/models")).json()) as {
        data: { id: string }[];
      };
      expect(chatOnly.data.map((model) => model.id)).toEqual(["reel-chat-1", "reel-chat-mini"]);
    } finally {
      await strict.close();
    }
    for (const model of list.data)
      expect(model).toMatchObject({
        object: "model",
        owned_by: expect.any(String),
        created: expect.any(Number),
      });
    expect((await call(simulator, "/v1/models/reel-chat-mini")).status).toBe(200);
    expect((await call(simulator, "/v1/models/gpt-9")).status).toBe(404);
  });

  it("names the bad field in chat 400s and enforces each model's rules", async () => {
    const cases: [Record<string, unknown>, number, string | null][] = [
      [{ messages: [{ role: "user", content: "hi" }] }, 400, "model"],
      [{ model: "reel-chat-1" }, 400, "messages"],
      [{ model: "nope", messages: [{ role: "user", content: "hi" }] }, 404, "model"],
      [
        { model: "reel-chat-1", messages: [{ role: "wizard", content: "hi" }] },
        400,
        "messages[0].role",
      ],
      [
        { model: "reel-chat-1", messages: [{ role: "user", content: "hi" }], temperature: 3 },
        400,
        "temperature",
      ],
      [
        {
          model: "reel-chat-1",
          messages: [{ role: "user", content: "hi" }],
          stop: ["a", "b", "c", "d", "e"],
        },
        400,
        "stop",
      ],
      [
        { model: "reel-chat-1", messages: [{ role: "user", content: "hi" }], max_tokens: 0 },
        400,
        "max_tokens",
      ],
      [
        { model: "reel-chat-1", messages: [{ role: "tool", content: "x" }] },
        400,
        "messages[0].tool_call_id",
      ],
      [
        { model: "reel-chat-1", messages: [{ role: "user", content: "hi" }], tool_choice: "auto" },
        400,
        "tool_choice",
      ],
      [
        {
          model: "reel-chat-1",
          messages: [{ role: "user", content: "hi" }],
          stream_options: { include_usage: true },
        },
        400,
        "stream_options",
      ],
      [
        {
          model: "reel-chat-mini",
          messages: [
            {
              role: "user",
              content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }],
            },
          ],
        },
        400,
        "messages[0].content[0]",
      ],
      [
        {
          model: "reel-chat-mini",
          messages: [{ role: "user", content: "hi" }],
          response_format: { type: "json_object" },
        },
        400,
        "messages",
      ],
    ];
    for (const [body, status, param] of cases) {
      const response = await call(simulator, "/v1/chat/completions", { body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      const error = (
        (await response.json()) as {
          error: { param: string | null; type: string; message: string };
        }
      ).error;
      expect(error.param, JSON.stringify(body)).toBe(param);
      expect(error.message.length).toBeGreaterThan(5);
    }
    const lenient = await call(simulator, "/v1/chat/completions", {
      body: {
        model: "reel-chat-1",
        messages: [{ role: "user", content: "hi" }],
        response_format: { type: "json_object" },
      },
    });
    expect(lenient.status).toBe(200);
    const mentioned = await call(simulator, "/v1/chat/completions", {
      body: {
        model: "reel-chat-mini",
        messages: [
          { role: "system", content: "Answer in JSON." },
          { role: "user", content: "hi" },
        ],
        response_format: { type: "json_object" },
      },
    });
    expect(mentioned.status).toBe(200);
  });

  it("counts requests by route and status at GET /_simulator/stats", async () => {
    const response = await call(simulator, "/_simulator/stats");
    expect(response.status).toBe(200);
    const stats = (await response.json()) as ReturnType<Simulator["stats"]>;
    expect(stats.requests["GET /v1/models"]?.["200"]).toBeGreaterThanOrEqual(1);
    expect(stats.requests["POST /v1/chat/completions"]?.["400"]).toBeGreaterThanOrEqual(10);
    expect(stats.requests.unknown?.["404"]).toBeGreaterThanOrEqual(1);
    // The simulator counts a request once its response has closed: wait for it to say so.
    await vi.waitFor(
      () =>
        expect(simulator.stats().requests["GET /_simulator/stats"]?.["200"]).toBeGreaterThanOrEqual(
          1,
        ),
      { timeout: 10_000 },
    );
  });
});
