import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, imagePart, type ReelsmithClient } from "@reelsmith/core";
import {
  AmbiguousSubmissionError,
  BadRequestError,
  NotFoundError,
  VideoJobFailedError,
} from "@reelsmith/core/errors";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { videoModels } from "../src/catalog-entry.js";
import { type Simulator, startSimulator } from "../src/index.js";
import { makePng } from "./helpers.js";

describe("@reelsmith/core against the simulator", () => {
  let simulator: Simulator;
  let client: ReelsmithClient;
  let directory: string;
  beforeAll(async () => {
    simulator = await startSimulator({
      timeScale: 0.02,
      // The first poll always happens (a later one may not: the job may be done by then).
      faults: "503@videos.retrieve:#1,429@chat:#4:0",
    });
    client = createClient({
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      pollIntervalMs: 10,
      retryBaseDelayMs: 5,
      videoModels,
    });
    directory = await mkdtemp(path.join(tmpdir(), "simulator-core-"));
  });
  afterAll(async () => {
    await simulator.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("lists models and completes chats, plain and streamed", async () => {
    expect((await client.models.list()).map((model) => model.id)).toEqual([
      "reel-chat-1",
      "reel-chat-mini",
      "reel-video-1",
      "reel-video-2-lite",
      "reel-video-3-long",
      "reel-image-1",
      "reel-voice-1",
      "reel-transcribe-1",
    ]);
    const params = {
      model: "reel-chat-1",
      messages: [{ role: "user" as const, content: "Name a good colour for a sunset scene." }],
    };
    const plain = await client.chat.completions.create(params);
    expect(plain.choices[0]?.message.content).toContain("sunset");
    const stream = await client.chat.completions.create({ ...params, stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe(plain.choices[0]?.message.content);
    const again = await client.chat.completions.create({
      ...params,
      stream: true,
      stream_options: { include_usage: true },
    });
    const final = await again.finalCompletion();
    expect(final.choices[0]?.message.content).toBe(text);
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("gets schema-valid JSON from chat.json (the storyboard case)", async () => {
    const result = await client.chat.json<{ scenes: { description: string }[] }>({
      model: "reel-chat-mini",
      messages: [
        { role: "system", content: "You are a storyboard artist." },
        {
          role: "user",
          content:
            "Split this story into 3 scenes: A fox wakes at dawn. It crosses a frozen river. The ice cracks. It leaps to the far bank. The sun rises.",
        },
      ],
      schema: {
        type: "object",
        required: ["scenes"],
        properties: {
          scenes: {
            type: "array",
            items: {
              type: "object",
              required: ["description"],
              properties: { description: { type: "string" } },
            },
          },
        },
      },
    });
    expect(result.attempts).toBe(1);
    expect(result.data.scenes.map((scene) => scene.description)).toEqual([
      "A fox wakes at dawn.",
      "It crosses a frozen river. The ice cracks.",
      "It leaps to the far bank. The sun rises.",
    ]);
  });

  it("runs tools until a final answer that uses their results", async () => {
    const result = await client.chat.runTools({
      model: "reel-chat-1",
      messages: [{ role: "user", content: "Convert 12 euros to dollars please." }],
      tools: [
        {
          name: "convert_currency",
          description: "Convert an amount between currencies",
          parameters: {
            type: "object",
            required: ["amount"],
            properties: {
              amount: { type: "number" },
              to: { type: "string", enum: ["usd", "gbp"] },
            },
          },
          execute: (args) => ({ ...(args as object), result: 13.08 }),
        },
      ],
    });
    expect(result.rounds).toBe(2);
    const call = result.messages.find(
      (message) => message.role === "assistant" && "tool_calls" in message && message.tool_calls,
    );
    expect(
      JSON.parse(
        (call as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]!.function
          .arguments,
      ),
    ).toMatchObject({ amount: 12 });
    expect(result.completion.choices[0]?.message.content).toContain("13.08");
  });

  it("sends an image file through imagePart and gets it described", async () => {
    const file = path.join(directory, "still.png");
    await writeFile(file, makePng(48, 48));
    const completion = await client.chat.completions.create({
      model: "reel-chat-1",
      messages: [
        { role: "user", content: [{ type: "text", text: "What is this?" }, await imagePart(file)] },
      ],
    });
    expect(completion.choices[0]?.message.content).toContain("48×48 pixels, square");
  });

  it("creates a video, waits (through an injected 503), downloads and probes the MP4", async () => {
    const job = await client.videos.create({
      model: "reel-video-2-lite",
      prompt: "Lanterns over a canal",
      seconds: 2,
      size: "960x540",
    });
    expect(job.status).toBe("pending");
    const statuses: string[] = [];
    const done = await client.videos.waitFor(job.id, {
      onUpdate: (update) => statuses.push(update.status),
    });
    expect(done).toMatchObject({ status: "completed", duration: 2, usage: { total_credits: 11 } });
    expect(statuses.at(-1)).toBe("completed");
    const target = path.join(directory, "lanterns.mp4");
    const saved = await client.videos.downloadContent(job.id, { to: target });
    expect(saved.bytes).toBeGreaterThan(1000);
    const info = await probe(saved.path);
    expect(info).toMatchObject({
      width: 960,
      height: 540,
      hasAudio: true,
      audioCodec: "aac",
      videoCodec: "h264",
    });
    expect(Math.abs(info.duration - 2)).toBeLessThan(0.1);
    // The simulator counts a request once its response has closed: wait for it to say so.
    await vi.waitFor(
      () => expect(simulator.stats().requests["GET /v1/videos/:id"]?.["503"]).toBe(1),
      { timeout: 10_000 },
    );
  });

  it("throws typed errors: failed jobs, unknown jobs, limits checked by the service", async () => {
    await expect(
      client.videos.createAndWait({ model: "reel-video-1", prompt: "#fail a crash", seconds: 1 }),
    ).rejects.toBeInstanceOf(VideoJobFailedError);
    await expect(client.videos.retrieve("video_nope")).rejects.toBeInstanceOf(NotFoundError);
    const unchecked = createClient({
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      videoModels: null,
    });
    const error = await unchecked.videos
      .create({ model: "reel-video-1", prompt: "x", seconds: 30 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).param).toBe("seconds");
  });

  it("sees a dropped POST /v1/videos as ambiguous; resubmitting with its key does not pay twice", async () => {
    const flaky = await startSimulator({ timeScale: 0.01, faults: "drop@videos.create:#1" });
    try {
      const flakyClient = createClient({
        baseURL: flaky.url,
        apiKey: flaky.apiKey,
        pollIntervalMs: 10,
      });
      const params = { model: "reel-video-1", prompt: "A tram at night", seconds: 1 };
      const error = await flakyClient.videos
        .create(params, { idempotencyKey: "tram-1" })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AmbiguousSubmissionError);
      const job = await flakyClient.videos.create(params, { idempotencyKey: "tram-1" });
      await flakyClient.videos.waitFor(job.id);
      const stats = flaky.stats();
      expect(stats.videoJobs.created).toBe(1);
      expect(stats.creditsCharged).toBe(10);
    } finally {
      await flaky.close();
    }
  });
});
