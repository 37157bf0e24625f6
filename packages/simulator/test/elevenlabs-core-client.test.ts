import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@reelsmith/core";
import {
  AmbiguousSubmissionError,
  InternalServerError,
  InvalidRequestError,
} from "@reelsmith/core/errors";
import { clientOptionsFromProfile, parseProfile } from "@reelsmith/core/profile";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { elevenlabsProfile, georgeVoice } from "./elevenlabs-fixture.js";

const ttsRoute = "POST /v1/text-to-speech/:voice_id/with-timestamps";

describe("core's client on the elevenlabs provider (speech from a speech-only profile)", () => {
  let simulator: Simulator;
  let directory: string;
  beforeAll(async () => {
    simulator = await startSimulator({ profile: elevenlabsProfile() });
    directory = await mkdtemp(path.join(tmpdir(), "reelsmith-elevenlabs-"));
  });
  afterAll(async () => {
    await simulator.close();
    await rm(directory, { recursive: true, force: true });
  });

  const client = () =>
    createClient({
      ...clientOptionsFromProfile(parseProfile(elevenlabsProfile())),
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
    });
  const speechRequests = () =>
    Object.values(simulator.stats().requests[ttsRoute] ?? {}).reduce((a, b) => a + b, 0);

  it("times the words from the alignment: the text's words with their punctuation, in order, within the audio ffprobe measures", async () => {
    const text = "A storm, over the harbour! The lamps — all of them — went out.";
    const to = path.join(directory, "storm.mp3");
    const spoken = await client().audio.speech(
      { model: "eleven_multilingual_v2", voice: georgeVoice, input: text, response_format: "mp3" },
      { to },
    );
    expect(spoken.file).toBe(to);
    expect(spoken.contentType).toBe("audio/mpeg");
    const words = spoken.words ?? [];
    expect(words.map((word) => word.word)).toEqual([
      "A",
      "storm,",
      "over",
      "the",
      "harbour!",
      "The",
      "lamps —",
      "all",
      "of",
      "them —",
      "went",
      "out.",
    ]);
    const info = await probe(to);
    const duration = info.audioDuration ?? info.duration;
    expect(info.audioCodec).toBe("mp3");
    let last = 0;
    for (const word of words) {
      expect(word.start).toBeGreaterThanOrEqual(last);
      expect(word.end).toBeGreaterThan(word.start);
      last = word.end;
    }
    expect(words.at(-1)?.end ?? 0).toBeLessThanOrEqual(duration + 0.05);
    // The speech fills the audio: the last word ends within its trailing silence.
    expect(words.at(-1)?.end ?? 0).toBeGreaterThan(duration - 0.6);
    expect(simulator.stats().speech.characters).toBe(text.length);
    expect(speechRequests()).toBe(1);
  });

  it("refuses locally, with no request sent: a voice the profile does not list, a format, a speed ElevenLabs does not take", async () => {
    const before = speechRequests();
    const refused = async (params: Record<string, unknown>) =>
      client()
        .audio.speech({
          model: "eleven_multilingual_v2",
          voice: georgeVoice,
          input: "Hello there.",
          ...params,
        } as never)
        .catch((error: unknown) => error);
    const voice = await refused({ voice: "ava" });
    expect(voice).toBeInstanceOf(InvalidRequestError);
    expect((voice as InvalidRequestError).message).toMatch(/voice/);
    expect(await refused({ response_format: "wav" })).toBeInstanceOf(InvalidRequestError);
    const speed = await refused({ speed: 2 });
    expect((speed as InvalidRequestError).message).toMatch(/0\.7 to 1\.2/);
    expect(await refused({ model: "tts-1" })).toBeInstanceOf(InvalidRequestError);
    expect(speechRequests()).toBe(before);
  });

  const sttRequests = () =>
    Object.values(simulator.stats().requests["POST /v1/speech-to-text"] ?? {}).reduce(
      (a, b) => a + b,
      0,
    );

  it("transcribes through the provider's transcription side (Scribe): the spoken words with the speech's own times", async () => {
    const text = "The keeper climbs, slowly. The fox waits below.";
    const to = path.join(directory, "keeper.mp3");
    const spoken = await client().audio.speech(
      { model: "eleven_multilingual_v2", voice: georgeVoice, input: text, response_format: "mp3" },
      { to },
    );
    const before = sttRequests();
    const heard = await client().audio.transcribe({
      model: "scribe_v1",
      file: to,
      timestamp_granularities: ["word"],
    });
    expect(sttRequests()).toBe(before + 1);
    expect(heard.text).toBe(text);
    expect(heard.language).toBe("eng");
    expect(heard.words?.map((word) => word.word)).toEqual(spoken.words?.map((word) => word.word));
    for (const [index, word] of (heard.words ?? []).entries()) {
      const said = spoken.words?.[index];
      expect(word.start).toBeCloseTo(said?.start ?? -1, 1);
      expect(word.end).toBeGreaterThan(word.start);
    }
    const plain = await client().audio.transcribe({ model: "scribe_v1", file: to });
    expect(plain.text).toBe(text);
    expect(plain.words).toBeUndefined();
  });

  it("refuses locally what Scribe does not take, with no request sent", async () => {
    const before = sttRequests();
    const refused = (params: Record<string, unknown>) =>
      client()
        .audio.transcribe({ model: "scribe_v1", file: Buffer.from("x"), ...params } as never)
        .catch((error: unknown) => error);
    const model = await refused({ model: "whisper-1" });
    expect(model).toBeInstanceOf(InvalidRequestError);
    expect((model as InvalidRequestError).message).toMatch(/scribe_v1, scribe_v2/);
    expect(await refused({ response_format: "srt" })).toBeInstanceOf(InvalidRequestError);
    expect(await refused({ timestamp_granularities: ["segment"] })).toBeInstanceOf(
      InvalidRequestError,
    );
    expect(sttRequests()).toBe(before);
  });
});

describe("a paid ElevenLabs request is never sent twice once it may have arrived", () => {
  const simulators: Simulator[] = [];
  afterAll(async () => {
    await Promise.all(simulators.map((simulator) => simulator.close()));
  });
  async function serve(faults: string) {
    const simulator = await startSimulator({ profile: elevenlabsProfile(), faults });
    simulators.push(simulator);
    const client = createClient({
      ...clientOptionsFromProfile(parseProfile(elevenlabsProfile())),
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      retryBaseDelayMs: 1,
    });
    const requests = () =>
      Object.values(simulator.stats().requests[ttsRoute] ?? {}).reduce((a, b) => a + b, 0);
    const speak = () =>
      client.audio
        .speech({
          model: "eleven_flash_v2_5",
          voice: georgeVoice,
          input: "Once more.",
          response_format: "mp3",
        })
        .catch((error: unknown) => error);
    return { simulator, requests, speak };
  }

  it("a 500 is not resent (the speech may have been made)", async () => {
    const { requests, speak } = await serve("500@audio.speech:#1");
    const error = await speak();
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect(requests()).toBe(1);
  });

  it("a 429 (too_many_concurrent_requests) is resent: nothing was made; one charge", async () => {
    const { simulator, requests, speak } = await serve("429@audio.speech:#1:0.001");
    const spoken = (await speak()) as { words?: unknown[] };
    expect(spoken.words).toHaveLength(2);
    expect(requests()).toBe(2);
    // Flash costs half a credit a character: "Once more." is 10 characters.
    expect(simulator.stats().creditsCharged).toBe(5);
  });

  it("a lost answer is ambiguous and not resent", async () => {
    const { simulator, requests, speak } = await serve("drop@audio.speech:#1");
    const error = await speak();
    expect(AmbiguousSubmissionError.isInstance(error)).toBe(true);
    expect(requests()).toBe(1);
    expect(simulator.stats().speech.requests).toBe(1);
  });
});
