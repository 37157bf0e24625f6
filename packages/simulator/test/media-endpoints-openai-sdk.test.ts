import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { probe } from "@reelsmith/media";
import OpenAI, { toFile } from "openai";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { call, makePng } from "./helpers.js";

/** The colour of one pixel of a PNG. */
function pixel(png: Buffer, x: number, y: number): [number, number, number] {
  const image = PNG.sync.read(png);
  const at = (y * image.width + x) * 4;
  return [image.data[at] ?? 0, image.data[at + 1] ?? 0, image.data[at + 2] ?? 0];
}

describe("images, speech and transcriptions through the official openai SDK", () => {
  let simulator: Simulator;
  let client: OpenAI;
  let work: string;
  beforeAll(async () => {
    simulator = await startSimulator({ seed: 5 });
    client = new OpenAI({
      baseURL: `${simulator.url}/v1`,
      apiKey: simulator.apiKey,
      maxRetries: 0,
    });
    work = await mkdtemp(path.join(tmpdir(), "reelsmith-media-endpoints-"));
  });
  afterAll(async () => {
    await simulator.close();
    await rm(work, { recursive: true, force: true });
  });

  it("images.generate draws n distinct PNGs of the asked size, the same again for the same prompt", async () => {
    const answer = await client.images.generate({
      model: "reel-image-1",
      prompt: "A lighthouse keeper in a yellow coat",
      size: "512x512",
      n: 2,
      response_format: "b64_json",
    });
    expect(answer.data).toHaveLength(2);
    const [first, second] = (answer.data ?? []).map((image) =>
      Buffer.from(image.b64_json ?? "", "base64"),
    );
    if (!first || !second) throw new Error("two images expected");
    expect(PNG.sync.read(first)).toMatchObject({ width: 512, height: 512 });
    expect(first.equals(second)).toBe(false);
    expect(answer.data?.[0]?.revised_prompt).toBe("A lighthouse keeper in a yellow coat");
    const again = await client.images.generate({
      model: "reel-image-1",
      prompt: "A lighthouse keeper in a yellow coat",
      size: "512x512",
      n: 2,
      response_format: "b64_json",
    });
    expect(Buffer.from(again.data?.[0]?.b64_json ?? "", "base64").equals(first)).toBe(true);
  });

  it("answers a url that serves the PNG without a key", async () => {
    const answer = await client.images.generate({
      model: "reel-image-1",
      prompt: "A fox",
      size: "256x256",
    });
    const url = answer.data?.[0]?.url ?? "";
    expect(url).toMatch(/\/v1\/images\/files\/img_[0-9a-f]{24}\.png$/);
    const response = await fetch(url);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(PNG.sync.read(Buffer.from(await response.arrayBuffer()))).toMatchObject({
      width: 256,
      height: 256,
    });
  });

  it("refuses n over the model's maximum and an unknown size with a 400 that says what is allowed, uncharged", async () => {
    const before = simulator.stats().creditsCharged;
    await expect(
      client.images.generate({ model: "reel-image-1", prompt: "x", n: 5 }),
    ).rejects.toMatchObject({
      status: 400,
      param: "n",
      message: expect.stringContaining("at most 4 images"),
    });
    await expect(
      client.images.generate({ model: "reel-image-1", prompt: "x", size: "1792x1024" }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("1024x1024") });
    expect(simulator.stats().creditsCharged).toBe(before);
  });

  it("images.edit shows its references as small insets in the top right corner, not under its text", async () => {
    const red = makePng(64, 64, [220, 30, 30]);
    const blue = makePng(64, 64, [20, 40, 210]);
    const answer = await client.images.edit({
      model: "reel-image-1",
      prompt: "The keeper on the cliff",
      image: [
        await toFile(red, "red.png", { type: "image/png" }),
        await toFile(blue, "blue.png", { type: "image/png" }),
      ],
      size: "512x512",
      response_format: "b64_json",
    });
    const png = Buffer.from(answer.data?.[0]?.b64_json ?? "", "base64");
    // Insets of 72 px from 56 px down: the first reference rightmost (20 px from the edge),
    // the second to its left; the bottom corners and the middle are the picture's own.
    expect(pixel(png, 455, 92)).toEqual([220, 30, 30]);
    expect(pixel(png, 365, 92)).toEqual([20, 40, 210]);
    expect(pixel(png, 4, 509)).not.toEqual([220, 30, 30]);
    expect(pixel(png, 507, 509)).not.toEqual([20, 40, 210]);
    await expect(
      client.images.edit({
        model: "reel-image-1",
        prompt: "too many",
        image: await Promise.all(
          [1, 2, 3, 4, 5].map((index) =>
            toFile(makePng(8, 8), `${index}.png`, { type: "image/png" }),
          ),
        ),
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("at most 4 reference images"),
    });
  });

  it("audio.speech.create speaks wav and mp3, and a transcription gives back its words with timings", async () => {
    const input = "The storm rolls over the harbour. Twelve ships wait for the light.";
    for (const format of ["wav", "mp3"] as const) {
      const response = await client.audio.speech.create({
        model: "reel-voice-1",
        voice: "ava",
        input,
        response_format: format,
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      const file = path.join(work, `speech.${format}`);
      await writeFile(file, bytes);
      const info = await probe(file);
      expect(info.hasAudio).toBe(true);
      expect(info.audioCodec).toBe(format === "wav" ? "pcm_s16le" : "mp3");
      expect(info.duration).toBeGreaterThan(2);

      const transcript = await client.audio.transcriptions.create({
        model: "reel-transcribe-1",
        file: await toFile(bytes, `speech.${format}`),
        response_format: "verbose_json",
        timestamp_granularities: ["word", "segment"],
      });
      expect(transcript.text).toBe(input);
      const words = transcript.words ?? [];
      expect(words.map((word) => word.word)).toEqual([
        "The",
        "storm",
        "rolls",
        "over",
        "the",
        "harbour",
        "Twelve",
        "ships",
        "wait",
        "for",
        "the",
        "light",
      ]);
      let previous = 0;
      for (const word of words) {
        expect(word.start).toBeGreaterThanOrEqual(previous);
        expect(word.end).toBeGreaterThan(word.start);
        previous = word.end;
      }
      expect(previous).toBeLessThanOrEqual(info.duration);
      expect(transcript.segments?.map((segment) => segment.text)).toEqual([
        "The storm rolls over the harbour.",
        "Twelve ships wait for the light.",
      ]);
    }
  });

  it("answers unknown audio with an empty text and its probed length, never an invented transcript", async () => {
    const speech = await client.audio.speech.create({
      model: "reel-voice-1",
      voice: "rowan",
      input: "Hello there.",
      response_format: "wav",
    });
    const bytes = Buffer.from(await speech.arrayBuffer());
    // The same audio, one sample changed: not audio the simulator made.
    const changed = Buffer.from(bytes);
    changed[changed.length - 2] = (changed[changed.length - 2] ?? 0) ^ 1;
    const transcript = await client.audio.transcriptions.create({
      model: "reel-transcribe-1",
      file: await toFile(changed, "other.wav"),
      response_format: "verbose_json",
    });
    expect(transcript.text).toBe("");
    expect(transcript.duration).toBeGreaterThan(0.5);
    const text = await client.audio.transcriptions.create({
      model: "reel-transcribe-1",
      file: await toFile(bytes, "speech.wav"),
      response_format: "srt",
    });
    expect(String(text)).toMatch(/^1\n00:00:00,\d{3} --> 00:00:0\d,\d{3}\nHello there\.\n/);
  });

  it("charges per image, per 1,000 characters and per minute, once per Idempotency-Key", async () => {
    const before = simulator.stats();
    const body = {
      model: "reel-voice-1",
      voice: "angus",
      input: "Once, and only once.",
      response_format: "wav",
    };
    const headers = { "idempotency-key": "speech-once" };
    const first = await call(simulator, "/v1/audio/speech", { body, headers });
    const second = await call(simulator, "/v1/audio/speech", { body, headers });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(
      Buffer.from(await second.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer())),
    ).toBe(true);
    const reused = await call(simulator, "/v1/audio/speech", {
      body: { ...body, input: "Other." },
      headers,
    });
    expect(reused.status).toBe(409);
    const image = {
      model: "reel-image-1",
      prompt: "x",
      n: 3,
      size: "256x256",
      response_format: "b64_json",
    };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await call(simulator, "/v1/images/generations", {
        body: image,
        headers: { "idempotency-key": "images-once" },
      });
      expect(response.status).toBe(200);
    }
    const after = simulator.stats();
    expect(after.speech.requests - before.speech.requests).toBe(1);
    expect(after.creditsByEndpoint.speech - before.creditsByEndpoint.speech).toBe(1);
    expect(after.images.made - before.images.made).toBe(3);
    expect(after.creditsByEndpoint.images - before.creditsByEndpoint.images).toBe(12);
    expect(after.creditsCharged - before.creditsCharged).toBe(13);
  });

  it("injects faults on the new routes like on the others", async () => {
    const faulty = await startSimulator({ faults: "500@audio.speech:#1,429@images:#1" });
    try {
      const sdk = new OpenAI({ baseURL: `${faulty.url}/v1`, apiKey: faulty.apiKey, maxRetries: 0 });
      await expect(
        sdk.audio.speech.create({ model: "reel-voice-1", voice: "ava", input: "Hi." }),
      ).rejects.toMatchObject({ status: 500 });
      await expect(
        sdk.images.generate({ model: "reel-image-1", prompt: "x" }),
      ).rejects.toMatchObject({ status: 429 });
      const wrongKey = new OpenAI({
        baseURL: `${faulty.url}/v1`,
        apiKey: "sk-wrong",
        maxRetries: 0,
      });
      await expect(
        wrongKey.audio.speech.create({ model: "reel-voice-1", voice: "ava", input: "Hi." }),
      ).rejects.toMatchObject({ status: 401 });
      expect(faulty.stats().speech.requests).toBe(0);
    } finally {
      await faulty.close();
    }
  });
});
