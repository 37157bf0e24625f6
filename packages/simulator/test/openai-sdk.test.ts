import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { makeJpegHeader, makePng } from "./helpers.js";

describe("the official openai SDK against the simulator", () => {
  let simulator: Simulator;
  let client: OpenAI;
  beforeAll(async () => {
    simulator = await startSimulator({ seed: 11 });
    client = new OpenAI({
      baseURL: `${simulator.url}/v1`,
      apiKey: simulator.apiKey,
      maxRetries: 0,
    });
  });
  afterAll(() => simulator.close());

  it("lists models", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual([
      "reel-chat-1",
      "reel-chat-mini",
      "reel-video-1",
      "reel-video-2-lite",
      "reel-video-3-long",
      "reel-image-1",
      "reel-voice-1",
      "reel-transcribe-1",
    ]);
    expect((await client.models.retrieve("reel-chat-1")).object).toBe("model");
  });

  it("completes a plain chat with usage and a request id", async () => {
    const { data, request_id } = await client.chat.completions
      .create({
        model: "reel-chat-mini",
        messages: [{ role: "user", content: "Why is the sky blue at noon?" }],
      })
      .withResponse();
    expect(request_id).toMatch(/^req_/);
    expect(data.object).toBe("chat.completion");
    expect(data.choices[0]?.finish_reason).toBe("stop");
    expect(data.choices[0]?.message.content).toContain("sky");
    expect(data.usage?.total_tokens).toBe(
      (data.usage?.prompt_tokens ?? 0) + (data.usage?.completion_tokens ?? 0),
    );
  });

  it("streams, and the SDK's stream helper assembles the same text", async () => {
    const params = {
      model: "reel-chat-1",
      messages: [{ role: "user" as const, content: "Describe autumn in a forest." }],
    };
    const stream = await client.chat.completions.create({
      ...params,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let chunks = 0;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(chunks).toBeGreaterThan(4);
    expect(usage?.completion_tokens).toBeGreaterThan(5);
    const plain = await client.chat.completions.create(params);
    expect(text).toBe(plain.choices[0]?.message.content);
    const helper = client.chat.completions.stream(params);
    const final = await helper.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(text);
  });

  it("runs a tool round trip with runTools", async () => {
    const calls: unknown[] = [];
    const runner = client.chat.completions.runTools({
      model: "reel-chat-1",
      messages: [
        { role: "user", content: "What is the population of Marseille according to the census?" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "lookup_population",
            description: "Population of a city from the census",
            parameters: {
              type: "object",
              properties: { city: { type: "string" } },
              required: ["city"],
            },
            parse: JSON.parse,
            function: (args: { city: string }) => {
              calls.push(args);
              return { city: args.city, population: 873076 };
            },
          },
        },
        {
          type: "function",
          function: {
            name: "send_email",
            description: "Send an email message",
            parameters: { type: "object", properties: { to: { type: "string" } } },
            parse: JSON.parse,
            function: () => "sent",
          },
        },
      ],
    });
    const content = await runner.finalContent();
    expect(calls).toEqual([{ city: "Marseille" }]);
    expect(content).toContain("873076");
    expect(content).toContain("lookup_population");
  });

  it("answers in JSON mode with an object, and with a json_schema instance", async () => {
    const json = await client.chat.completions.create({
      model: "reel-chat-mini",
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: "Reply in JSON." },
        { role: "user", content: "Summarise: the tide rises. Boats float." },
      ],
    });
    const value = JSON.parse(json.choices[0]?.message.content ?? "");
    expect(typeof value).toBe("object");
    expect(Array.isArray(value)).toBe(false);

    const schema = {
      type: "object",
      additionalProperties: false,
      required: ["title", "scenes"],
      properties: {
        title: { type: "string" },
        scenes: {
          type: "array",
          minItems: 1,
          maxItems: 6,
          items: {
            type: "object",
            required: ["description", "seconds"],
            properties: {
              description: { type: "string" },
              seconds: { type: "integer", minimum: 2, maximum: 6 },
            },
          },
        },
      },
    };
    const structured = await client.chat.completions.create({
      model: "reel-chat-1",
      response_format: {
        type: "json_schema",
        json_schema: { name: "storyboard", schema, strict: true },
      },
      messages: [
        {
          role: "user",
          content:
            "Split this story into 2 scenes: A girl finds a key. She opens an old door. Light floods the room. She smiles.",
        },
      ],
    });
    const board = JSON.parse(structured.choices[0]?.message.content ?? "");
    expect(board.scenes).toHaveLength(2);
    expect(board.scenes[0].description).toBe("A girl finds a key. She opens an old door.");
    expect(board.scenes[1].description).toBe("Light floods the room. She smiles.");
    for (const scene of board.scenes) expect(scene.seconds).toBeGreaterThanOrEqual(2);
    expect(Object.keys(board).sort()).toEqual(["scenes", "title"]);
  });

  it("describes images from their bytes and refuses them on the text-only model", async () => {
    const png = `data:image/png;base64,${makePng(320, 200).toString("base64")}`;
    const jpeg = `data:image/jpeg;base64,${makeJpegHeader(640, 960).toString("base64")}`;
    const reply = await client.chat.completions.create({
      model: "reel-chat-1",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What are these?" },
            { type: "image_url", image_url: { url: png } },
            { type: "image_url", image_url: { url: jpeg } },
            { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
          ],
        },
      ],
    });
    const text = reply.choices[0]?.message.content ?? "";
    expect(text).toContain("PNG image");
    expect(text).toContain("320×200");
    expect(text).toContain("landscape");
    expect(text).toContain("JPEG image");
    expect(text).toContain("640×960");
    expect(text).toContain("did not fetch");
    const error = await client.chat.completions
      .create({
        model: "reel-chat-mini",
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: png } }] }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe(
      "messages[0].content[0]",
    );
  });

  it("creates, polls and downloads a video with the SDK's videos API (multipart upload)", async () => {
    const fast = await startSimulator({ timeScale: 0.01 });
    try {
      const videos = new OpenAI({ baseURL: `${fast.url}/v1`, apiKey: fast.apiKey, maxRetries: 0 })
        .videos;
      const reference = await OpenAI.toFile(makePng(32, 18, [20, 60, 200]), "still.png", {
        type: "image/png",
      });
      const created = await videos.create({
        model: "reel-video-2-lite" as OpenAI.VideoModel,
        prompt: "A blue dusk",
        seconds: "2" as OpenAI.VideoSeconds,
        size: "854x480" as OpenAI.VideoSize,
        input_reference: reference,
      });
      expect(created.status).toBe("pending");
      let job = created;
      while (job.status !== "completed") {
        await new Promise((resolve) => setTimeout(resolve, 20));
        job = await videos.retrieve(created.id);
      }
      expect(job).toMatchObject({ seconds: "2", size: "854x480", progress: 100 });
      const content = await videos.downloadContent(created.id);
      expect(content.headers.get("content-type")).toBe("video/mp4");
      const bytes = Buffer.from(await content.arrayBuffer());
      expect(bytes.toString("ascii", 4, 8)).toBe("ftyp");
      const rejected = await videos
        .create({ model: "reel-video-2-lite" as OpenAI.VideoModel, prompt: "x", seconds: "12" })
        .catch((caught: unknown) => caught);
      expect(rejected).toBeInstanceOf(OpenAI.BadRequestError);
      expect((rejected as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("seconds");
    } finally {
      await fast.close();
    }
  });

  it("surfaces 401 and 429 as the SDK's typed errors", async () => {
    const wrong = new OpenAI({ baseURL: `${simulator.url}/v1`, apiKey: "sk-wrong", maxRetries: 0 });
    await expect(wrong.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const limited = await startSimulator({ faults: "429@chat:#1:0" });
    try {
      const retrying = new OpenAI({
        baseURL: `${limited.url}/v1`,
        apiKey: limited.apiKey,
        maxRetries: 1,
      });
      const done = await retrying.chat.completions.create({
        model: "reel-chat-1",
        messages: [{ role: "user", content: "hi" }],
      });
      expect(done.choices[0]?.finish_reason).toBe("stop");
      // The simulator counts a request once its response has closed: wait for it to say so.
      await vi.waitFor(
        () =>
          expect(limited.stats().requests["POST /v1/chat/completions"]).toEqual({
            "429": 1,
            "200": 1,
          }),
        { timeout: 10_000 },
      );
    } finally {
      await limited.close();
    }
  });
});
