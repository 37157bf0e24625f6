import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { makePng } from "./helpers.js";

describe("the simulator serving a profile's image, speech and transcription models", () => {
  let simulator: Simulator;
  let client: OpenAI;
  beforeAll(async () => {
    simulator = await startSimulator({
      profile: {
        image_models: {
          "gpt-image-1": {
            sizes: ["1024x1024", "512x512"],
            max_references: 2,
            max_images: 2,
            price: { per_image: 7 },
          },
        },
        speech_models: {
          "tts-1": {
            voices: ["alloy", "verse"],
            formats: ["wav", "opus"],
            price: { per_1000_characters: 30 },
          },
        },
        transcription_models: {
          "whisper-1": { word_timestamps: false, price: { per_minute: 12 } },
        },
      },
    });
    client = new OpenAI({
      baseURL: `${simulator.url}/v1`,
      apiKey: simulator.apiKey,
      maxRetries: 0,
    });
  });
  afterAll(() => simulator.close());

  it("takes the profile's sizes, references and image count, and charges its price per image", async () => {
    const answer = await client.images.generate({
      model: "gpt-image-1",
      prompt: "A keeper",
      size: "512x512",
      n: 2,
    });
    expect(answer.data).toHaveLength(2);
    expect(simulator.stats().creditsByEndpoint.images).toBe(14);
    await expect(
      client.images.generate({ model: "gpt-image-1", prompt: "A keeper", n: 3 }),
    ).rejects.toMatchObject({ status: 400, param: "n" });
    const three = await Promise.all(
      [1, 2, 3].map((index) => toFile(makePng(8, 8), `${index}.png`, { type: "image/png" })),
    );
    await expect(
      client.images.edit({ model: "gpt-image-1", prompt: "x", image: three }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("at most 2 reference images"),
    });
    await expect(
      client.images.generate({ model: "reel-image-1", prompt: "x" }),
    ).rejects.toMatchObject({ param: "model" });
  });

  it("speaks with the profile's voices in the formats the simulator can encode, priced per 1,000 characters", async () => {
    const input = "A voice from the profile.";
    const speech = await client.audio.speech.create({
      model: "tts-1",
      voice: "verse",
      input,
      response_format: "wav",
    });
    expect(
      Buffer.from(await speech.arrayBuffer())
        .subarray(0, 4)
        .toString("ascii"),
    ).toBe("RIFF");
    expect(simulator.stats().creditsByEndpoint.speech).toBe(1);
    // opus is in the profile, but the simulator cannot encode it: it says so rather than answer another format.
    await expect(
      client.audio.speech.create({
        model: "tts-1",
        voice: "verse",
        input,
        response_format: "opus",
      }),
    ).rejects.toMatchObject({ status: 400, param: "response_format" });
    await expect(
      client.audio.speech.create({ model: "tts-1", voice: "ava", input }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("alloy, verse"),
    });
  });

  it("refuses word timings from a model without them, and charges per minute", async () => {
    const speech = await client.audio.speech.create({
      model: "tts-1",
      voice: "alloy",
      input: "Hello.",
      response_format: "wav",
    });
    const file = await toFile(Buffer.from(await speech.arrayBuffer()), "hello.wav");
    await expect(
      client.audio.transcriptions.create({
        model: "whisper-1",
        file,
        response_format: "verbose_json",
        timestamp_granularities: ["word"],
      }),
    ).rejects.toMatchObject({ status: 400, param: "timestamp_granularities" });
    const transcript = await client.audio.transcriptions.create({ model: "whisper-1", file });
    expect(transcript.text).toBe("Hello.");
    expect(simulator.stats().creditsByEndpoint.transcriptions).toBe(1);
  });
});
