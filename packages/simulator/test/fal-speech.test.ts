import { createFalClient } from "@fal-ai/client";
import { createClient } from "@reelsmith/core";
import { InvalidRequestError } from "@reelsmith/core/errors";
import { clientOptionsFromProfile, parseProfile } from "@reelsmith/core/profile";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { falElevenlabsEndpoint, falSpeechProfile, kokoroEndpoint } from "./fal-fixture.js";

/** An MP3 starts with an ID3 tag or a frame sync. */
const isMp3 = (bytes: Uint8Array) =>
  Buffer.from(bytes.subarray(0, 3)).toString("latin1") === "ID3" ||
  (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0);
const submits = (simulator: Simulator) =>
  Object.values(simulator.stats().requests["POST /{endpoint}"] ?? {}).reduce((a, b) => a + b, 0);

describe("fal speech endpoints (Kokoro, ElevenLabs) on serve --dialect fal", () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator({ profile: falSpeechProfile(), timeScale: 0.01 });
  });
  afterAll(async () => {
    await simulator.close();
  });

  /** fal's official client, unchanged but for its base URL. */
  const fal = () =>
    createFalClient({
      credentials: simulator.apiKey,
      requestMiddleware: async (request) => ({
        ...request,
        url: request.url.replace("https://queue.fal.run", simulator.url),
      }),
    });
  const client = () =>
    createClient({
      ...clientOptionsFromProfile(parseProfile(falSpeechProfile())),
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      pollIntervalMs: 10,
    });

  it("@fal-ai/client subscribe to Kokoro: audio.url serving an MP3, charged per character at the profile's price", async () => {
    const before = simulator.stats().creditsCharged;
    const prompt = "The lamps went out over the harbour.";
    const result = await fal().subscribe(kokoroEndpoint, {
      input: { prompt, voice: "am_adam", speed: 1.2 },
      pollInterval: 10,
    });
    const audio = (result.data as { audio: { url: string; content_type: string } }).audio;
    expect(audio.content_type).toBe("audio/mpeg");
    const bytes = new Uint8Array(await (await fetch(audio.url)).arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    expect(isMp3(bytes)).toBe(true);
    expect(simulator.stats().creditsCharged - before).toBe(prompt.length);
  });

  it("@fal-ai/client queue.submit/status/result on ElevenLabs: text and voice, fal's 422 for a voice it lacks", async () => {
    const queued = await fal().queue.submit(falElevenlabsEndpoint, {
      input: { text: "Hello from the cliff.", voice: "George" },
    });
    const status = await fal().queue.status(falElevenlabsEndpoint, {
      requestId: queued.request_id,
    });
    expect(status.status).toBe("COMPLETED");
    const result = await fal().queue.result(falElevenlabsEndpoint, {
      requestId: queued.request_id,
    });
    const url = (result.data as { audio: { url: string } }).audio.url;
    expect(isMp3(new Uint8Array(await (await fetch(url)).arrayBuffer()))).toBe(true);
    const before = simulator.stats().creditsCharged;
    const refused = await fal()
      .queue.submit(falElevenlabsEndpoint, { input: { text: "Hello.", voice: "Nobody" } })
      .catch((caught: unknown) => caught);
    expect((refused as { status?: number }).status).toBe(422);
    expect(simulator.stats().creditsCharged).toBe(before);
  });

  it("core's client: audio.speech maps input and voice onto each endpoint's fields and gives the MP3's bytes, no word timings", async () => {
    for (const [model, voice] of [
      [kokoroEndpoint, "af_heart"],
      [falElevenlabsEndpoint, "Rachel"],
    ] as const) {
      const before = submits(simulator);
      const spoken = await client().audio.speech({ model, voice, input: "A storm over the bay." });
      expect(submits(simulator)).toBe(before + 1);
      expect(spoken.contentType).toBe("audio/mpeg");
      expect(isMp3(spoken.bytes ?? new Uint8Array())).toBe(true);
      expect(spoken.words).toBeUndefined();
    }
  });

  it("core's client refuses locally, with 0 requests: empty text, a format fal does not answer, instructions", async () => {
    const before = submits(simulator);
    const refused = (params: Record<string, unknown>) =>
      client()
        .audio.speech({
          model: kokoroEndpoint,
          voice: "af_heart",
          input: "Hello.",
          ...params,
        } as never)
        .catch((error: unknown) => error);
    const empty = await refused({ input: "   " });
    expect(empty).toBeInstanceOf(InvalidRequestError);
    expect((empty as Error).message).toMatch(/input/);
    const format = await refused({ response_format: "wav" });
    expect(format).toBeInstanceOf(InvalidRequestError);
    expect(await refused({ instructions: "Whisper" })).toBeInstanceOf(InvalidRequestError);
    expect(submits(simulator)).toBe(before);
  });
});
