import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, type ReelsmithClient } from "@reelsmith/core";
import {
  AmbiguousSubmissionError,
  BadRequestError,
  InvalidRequestError,
} from "@reelsmith/core/errors";
import { imageModelsFromProfile, speechModelsFromProfile } from "@reelsmith/core/profile";
import { probe } from "@reelsmith/media";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { makePng } from "./helpers.js";

describe("@reelsmith/core's images and audio against the simulator", () => {
  let simulator: Simulator;
  let client: ReelsmithClient;
  let directory: string;
  beforeAll(async () => {
    simulator = await startSimulator({ faults: "500@audio.speech:#1" });
    client = createClient({
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      retryBaseDelayMs: 1,
    });
    directory = await mkdtemp(path.join(tmpdir(), "reelsmith-core-media-"));
  });
  afterAll(async () => {
    await simulator.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("images.generate saves n images to numbered files, with the revised prompt", async () => {
    const result = await client.images.generate(
      { model: "reel-image-1", prompt: "A keeper in a yellow coat", size: "256x256", n: 2 },
      { to: path.join(directory, "keeper.png") },
    );
    expect(result.files).toEqual([
      path.join(directory, "keeper-1.png"),
      path.join(directory, "keeper-2.png"),
    ]);
    expect(result.revised_prompt).toBe("A keeper in a yellow coat");
    for (const file of result.files)
      expect(PNG.sync.read(await readFile(file))).toMatchObject({ width: 256, height: 256 });
    const byUrl = await client.images.generate({
      model: "reel-image-1",
      prompt: "A fox",
      size: "256x256",
      response_format: "url",
    });
    expect(byUrl.images[0]?.url).toMatch(/\/v1\/images\/files\//);
    expect(PNG.sync.read(Buffer.from(byUrl.images[0]?.bytes ?? []))).toMatchObject({ width: 256 });
  });

  it("images.edit sends references given as a path, a Buffer and a Blob as image[]", async () => {
    const red = path.join(directory, "red.png");
    await writeFile(red, makePng(32, 32, [200, 20, 20]));
    const result = await client.images.edit({
      model: "reel-image-1",
      prompt: "The keeper on the cliff",
      size: "512x512",
      references: [
        red,
        makePng(32, 32, [20, 200, 20]),
        new Blob([makePng(32, 32, [20, 20, 200])], { type: "image/png" }),
      ],
    });
    const image = PNG.sync.read(Buffer.from(result.images[0]?.bytes ?? []));
    const at = (x: number, y: number) => [
      ...image.data.subarray((y * 512 + x) * 4, (y * 512 + x) * 4 + 3),
    ];
    // Each reference arrived whole: shown as an inset in the top right corner, the first
    // rightmost, 72 px wide from 56 px down, 90 px apart (as the openai SDK test reads them).
    expect(at(455, 92)).toEqual([200, 20, 20]);
    expect(at(365, 92)).toEqual([20, 200, 20]);
    expect(at(275, 92)).toEqual([20, 20, 200]);
    expect(simulator.stats().images.edits).toBe(1);
  });

  it("refuses locally what the profile's models do not take: nothing is sent, nothing charged", async () => {
    const profile = {
      image_models: { "reel-image-1": { sizes: ["256x256"], max_images: 1, max_references: 1 } },
      speech_models: { "reel-voice-1": { voices: ["ava"], formats: ["wav" as const] } },
    };
    const checked = createClient({
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      imageModels: imageModelsFromProfile(profile),
      speechModels: speechModelsFromProfile(profile),
    });
    const before = simulator.stats();
    const error = await checked.images
      .generate({ model: "reel-image-1", prompt: "x", n: 2, size: "512x512" })
      .catch((caught: unknown) => caught);
    expect(InvalidRequestError.isInstance(error)).toBe(true);
    expect((error as InvalidRequestError).problems.map((problem) => problem.field)).toEqual([
      "n",
      "size",
    ]);
    await expect(
      checked.audio.speech({ model: "reel-voice-1", voice: "rowan", input: "Hi." }),
    ).rejects.toMatchObject({ field: "voice" });
    await expect(
      checked.images.edit({ model: "reel-image-1", prompt: "x", references: [] }),
    ).rejects.toMatchObject({ field: "references" });
    expect(simulator.stats().requests).toEqual(before.requests);
  });

  it("audio.speech writes the audio (after a retried 500), and audio.transcribe gives back its words and timings", async () => {
    const input = "Narration sets the timing. Picture and voice stay in sync.";
    const file = path.join(directory, "narration.wav");
    const spoken = await client.audio.speech(
      { model: "reel-voice-1", voice: "ava", input, response_format: "wav" },
      { to: file, idempotencyKey: "narration-1" },
    );
    expect(spoken).toMatchObject({ file, contentType: "audio/wav" });
    expect(simulator.stats().requests["POST /v1/audio/speech"]).toEqual({ "500": 1, "200": 1 });
    const info = await probe(file);
    const transcript = await client.audio.transcribe({
      model: "reel-transcribe-1",
      file,
      timestamp_granularities: ["word"],
    });
    expect(transcript.text).toBe(input);
    expect(transcript.words?.map((word) => word.word)).toEqual(
      input.replace(/[.]/g, "").split(" "),
    );
    expect(transcript.words?.at(-1)?.end ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(
      info.duration,
    );
    expect(transcript.duration).toBeCloseTo(info.duration, 1);
    const srt = await client.audio.transcribe({
      model: "reel-transcribe-1",
      file,
      response_format: "srt",
    });
    expect(srt.text).toContain("Narration sets the timing.");
    const bytes = await client.audio.speech({
      model: "reel-voice-1",
      voice: "kal",
      input: "Short.",
      response_format: "mp3",
    });
    expect(bytes.contentType).toBe("audio/mpeg");
    expect(bytes.bytes?.length).toBe(bytes.size);
  });

  it("says what the service refused, and an ambiguous request is never sent twice", async () => {
    await expect(
      client.audio.speech({ model: "reel-voice-1", voice: "nobody", input: "Hi." }),
    ).rejects.toBeInstanceOf(BadRequestError);
    const dropping = await startSimulator({ faults: "drop@images:#1" });
    try {
      const other = createClient({
        baseURL: dropping.url,
        apiKey: dropping.apiKey,
        retryBaseDelayMs: 1,
      });
      const error = await other.images
        .generate(
          { model: "reel-image-1", prompt: "x", size: "256x256" },
          { idempotencyKey: "img-1" },
        )
        .catch((caught: unknown) => caught);
      expect(AmbiguousSubmissionError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/^POST \/v1\/images\/generations may or may not/);
      expect(dropping.stats().images.requests).toBe(1);
      const again = await other.images.generate(
        { model: "reel-image-1", prompt: "x", size: "256x256" },
        { idempotencyKey: "img-1" },
      );
      expect(again.images).toHaveLength(1);
      expect(dropping.stats().images.requests).toBe(1);
      expect(dropping.stats().creditsByEndpoint.images).toBe(4);
    } finally {
      await dropping.close();
    }
  });
});
