import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/index.js";
import { georgeVoice } from "./elevenlabs-fixture.js";

/** ElevenLabs' official client, unchanged but for its base URL, with its own retries off. */
function elevenlabs(simulator: Simulator, apiKey = simulator.apiKey) {
  return new ElevenLabsClient({ apiKey, baseUrl: simulator.url, maxRetries: 0 });
}

describe("@elevenlabs/elevenlabs-js against serve --dialect elevenlabs", () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator({ dialect: "elevenlabs" });
  });
  afterAll(async () => {
    await simulator.close();
  });

  it("textToSpeech.convertWithTimestamps: an MP3 and a character alignment of the text, charged per character", async () => {
    const text = "A storm, over the harbour.";
    const before = simulator.stats().creditsCharged;
    const answer = await elevenlabs(simulator).textToSpeech.convertWithTimestamps(georgeVoice, {
      text,
      modelId: "eleven_multilingual_v2",
    });
    const audio = Buffer.from(answer.audioBase64, "base64");
    // An MP3 frame's sync word (the simulator writes no ID3 tag).
    expect(audio[0]).toBe(0xff);
    expect((audio[1] ?? 0) & 0xe0).toBe(0xe0);
    const alignment = answer.alignment;
    expect(alignment?.characters.join("")).toBe(text);
    const starts = alignment?.characterStartTimesSeconds ?? [];
    const ends = alignment?.characterEndTimesSeconds ?? [];
    expect(starts).toHaveLength(text.length);
    for (let index = 1; index < starts.length; index++)
      expect(starts[index]).toBeGreaterThanOrEqual(starts[index - 1] ?? 0);
    for (const [index, end] of ends.entries())
      expect(end).toBeGreaterThanOrEqual(starts[index] ?? 0);
    expect(answer.normalizedAlignment?.characters.join("")).toBe(text);
    expect(simulator.stats().creditsCharged - before).toBe(text.length);
  });

  it("voices.getAll and voices.search list the voices by id and name", async () => {
    const client = elevenlabs(simulator);
    const all = await client.voices.getAll();
    expect(all.voices.map((voice) => voice.voiceId)).toContain(georgeVoice);
    expect(all.voices.find((voice) => voice.voiceId === georgeVoice)?.name).toBe("George");
    const found = await client.voices.search({ search: "geor" });
    expect(found.voices.map((voice) => voice.voiceId)).toEqual([georgeVoice]);
    expect(found.hasMore).toBe(false);
  });

  it("models.list: ElevenLabs' models as it lists them", async () => {
    const models = await elevenlabs(simulator).models.list();
    expect(models.map((model) => model.modelId)).toEqual(
      expect.arrayContaining([
        "eleven_multilingual_v2",
        "eleven_turbo_v2_5",
        "eleven_flash_v2_5",
        "eleven_v3",
      ]),
    );
  });

  it("a wrong key is a 401 with ElevenLabs' body, as the client's error class; nothing is charged", async () => {
    const before = simulator.stats().creditsCharged;
    const error = await elevenlabs(simulator, "sk-wrong")
      .textToSpeech.convertWithTimestamps(georgeVoice, { text: "Hello.", modelId: "eleven_v3" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(401);
    expect((error as ElevenLabsError).body).toEqual({
      detail: { status: "invalid_api_key", message: "Invalid API key" },
    });
    expect(simulator.stats().creditsCharged).toBe(before);
  });

  it("an unknown voice is a 404 voice_not_found", async () => {
    const error = await elevenlabs(simulator)
      .textToSpeech.convertWithTimestamps("no-such-voice", { text: "Hello." })
      .catch((caught: unknown) => caught);
    expect((error as ElevenLabsError).statusCode).toBe(404);
    expect((error as ElevenLabsError).body).toMatchObject({
      detail: { status: "voice_not_found" },
    });
  });
  it("speechToText.convert (Scribe): the words of audio it spoke, with their start and end, charged per minute", async () => {
    const client = elevenlabs(simulator);
    const text = "A storm, over the harbour.";
    const spoken = await client.textToSpeech.convertWithTimestamps(georgeVoice, {
      text,
      modelId: "eleven_multilingual_v2",
    });
    const audio = Buffer.from(spoken.audioBase64, "base64");
    const before = simulator.stats().creditsCharged;
    const answer = await client.speechToText.convert({
      file: new Blob([audio], { type: "audio/mpeg" }),
      modelId: "scribe_v1",
      timestampsGranularity: "word",
    });
    if (!("words" in answer) || !("text" in answer)) throw new Error("not a one-channel answer");
    expect(answer.text).toBe(text);
    expect(answer.languageCode).toBe("eng");
    const words = answer.words.filter((word) => word.type === "word");
    expect(words.map((word) => word.text).join(" ")).toBe(text);
    expect(answer.words.some((word) => word.type === "spacing")).toBe(true);
    for (const [index, word] of words.entries()) {
      expect(word.end ?? 0).toBeGreaterThan(word.start ?? 0);
      if (index > 0) expect(word.start ?? 0).toBeGreaterThanOrEqual(words[index - 1]?.end ?? 0);
    }
    // The word times are the alignment's: the first word starts where its first character does.
    expect(words[0]?.start).toBeCloseTo(spoken.alignment?.characterStartTimesSeconds[0] ?? -1, 2);
    const minutes = (answer.audioDurationSecs ?? 0) / 60;
    expect(simulator.stats().creditsCharged - before).toBe(Math.ceil(6 * minutes));
  });

  it("speechToText.convert refuses an unknown model with ElevenLabs' 422 and nothing charged", async () => {
    const before = simulator.stats().creditsCharged;
    const error = await elevenlabs(simulator)
      .speechToText.convert({
        file: new Blob([Buffer.from("not audio")]),
        modelId: "whisper-1",
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as InstanceType<typeof ElevenLabsError>).statusCode).toBe(422);
    expect(JSON.stringify((error as InstanceType<typeof ElevenLabsError>).body)).toContain(
      "scribe_v1",
    );
    expect(simulator.stats().creditsCharged).toBe(before);
  });

  it("counts its speech and its speech-to-text as paid requests held while answered", async () => {
    const spoken = await elevenlabs(simulator).textToSpeech.convertWithTimestamps(georgeVoice, {
      text: "A storm, over the harbour.",
      modelId: "eleven_multilingual_v2",
    });
    const audio = Buffer.from(spoken.audioBase64, "base64");
    const requests = {
      speech: (client: ElevenLabsClient) =>
        client.textToSpeech.convertWithTimestamps(georgeVoice, {
          text: "The sea is calm tonight.",
          modelId: "eleven_multilingual_v2",
        }),
      "speech-to-text": (client: ElevenLabsClient) =>
        client.speechToText.convert({
          file: new Blob([audio], { type: "audio/mpeg" }),
          modelId: "scribe_v1",
          timestampsGranularity: "word",
        }),
    };
    for (const [name, request] of Object.entries(requests)) {
      // A simulator of its own per route, so only that route's request is counted.
      const own = await startSimulator({ dialect: "elevenlabs" });
      try {
        await request(elevenlabs(own));
        expect(own.stats(), name).toMatchObject({ requestsInFlight: 0, peakConcurrentRequests: 1 });
      } finally {
        await own.close();
      }
    }
  });
});
