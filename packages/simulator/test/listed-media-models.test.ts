import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { listedModels } from "@reelsmith/core/profile";
import { probe } from "@reelsmith/media";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openaiVoices } from "../src/catalog-entry.js";
import { type Simulator, startSimulator } from "../src/index.js";

/** Every model the list gives, as the SDK pages it. */
async function listAll(client: OpenAI) {
  const models: (OpenAI.Models.Model & Record<string, unknown>)[] = [];
  for await (const model of client.models.list())
    models.push(model as OpenAI.Models.Model & Record<string, unknown>);
  return models;
}

const clientOf = (simulator: Simulator) =>
  new OpenAI({ baseURL: `${simulator.url}/v1`, apiKey: simulator.apiKey, maxRetries: 0 });

describe("image, speech and transcription models listed, and OpenAI's voices, through the openai SDK", () => {
  let simulator: Simulator;
  let client: OpenAI;
  let work: string;
  beforeAll(async () => {
    // A 500 says only "internal error": its cause goes to the test's output, to be read.
    simulator = await startSimulator({
      seed: 3,
      logger: { error: (message, fields) => console.error(message, fields) },
    });
    client = clientOf(simulator);
    work = await mkdtemp(path.join(tmpdir(), "reelsmith-listed-media-"));
  });
  afterAll(async () => {
    await simulator.close();
    await rm(work, { recursive: true, force: true });
  });

  it("finds each media model by its listed type, with limits core reads into a profile's sections", async () => {
    const models = await listAll(client);
    const ofType = (type: string) => models.filter((model) => model.type === type);
    expect(ofType("image").map((model) => model.id)).toEqual(["reel-image-1"]);
    expect(ofType("speech").map((model) => model.id)).toEqual(["reel-voice-1"]);
    expect(ofType("transcription").map((model) => model.id)).toEqual(["reel-transcribe-1"]);
    for (const model of models)
      expect(Object.keys(model).slice(0, 4)).toEqual(["id", "object", "created", "owned_by"]);
    const retrieved = (await client.models.retrieve("reel-voice-1")) as OpenAI.Models.Model & {
      speech?: { voices?: string[] };
    };
    expect(retrieved.speech?.voices).toEqual(expect.arrayContaining(["ava", ...openaiVoices]));

    // What a runner learns from this list: each model in its section, with its limits.
    const listed = listedModels(models);
    expect(listed.sectionOf.get("reel-image-1")).toBe("image_models");
    expect(listed.sectionOf.get("reel-voice-1")).toBe("speech_models");
    expect(listed.sectionOf.get("reel-transcribe-1")).toBe("transcription_models");
    expect(listed.sectionOf.get("reel-chat-1")).toBe("chat_models");
    expect(listed.described.image_models).toEqual([
      {
        id: "reel-image-1",
        sizes: ["1024x1024", "1536x1024", "1024x1536", "512x512", "256x256"],
        maxReferences: 4,
        maxImages: 4,
        price: { perImage: 4 },
      },
    ]);
    expect(listed.described.speech_models).toEqual([
      {
        id: "reel-voice-1",
        voices: ["ava", "rowan", "angus", "kal", ...openaiVoices],
        formats: ["mp3", "wav", "pcm"],
        price: { per1000Characters: 15 },
      },
    ]);
    expect(listed.described.transcription_models).toEqual([
      { id: "reel-transcribe-1", wordTimestamps: true, price: { perMinute: 6 } },
    ]);
  });

  it("speaks with voice alloy, as one of its own voices, in real audio a transcription gives back", async () => {
    const models = await listAll(client);
    const speechModel = models.find((model) => model.type === "speech")?.id ?? "";
    const transcriptionModel = models.find((model) => model.type === "transcription")?.id ?? "";
    const input = "The lamp is lit.";
    const speak = async (voice: string) =>
      Buffer.from(
        await (
          await client.audio.speech.create({
            model: speechModel,
            voice,
            input,
            response_format: "wav",
          })
        ).arrayBuffer(),
      );
    const alloy = await speak("alloy");
    const file = path.join(work, "alloy.wav");
    await writeFile(file, alloy);
    const info = await probe(file);
    expect(info.hasAudio).toBe(true);
    expect(info.duration).toBeGreaterThan(0.3);
    const own = await Promise.all(["ava", "rowan", "angus", "kal"].map(speak));
    // Mapped onto exactly one of the simulator's voices, the same one every time.
    expect(own.filter((bytes) => bytes.equals(alloy))).toHaveLength(1);
    expect((await speak("alloy")).equals(alloy)).toBe(true);
    // Every OpenAI name is taken, and OpenAI's voices do not all sound the same.
    const onyx = await speak("onyx");
    expect(onyx.equals(alloy)).toBe(false);
    const transcript = await client.audio.transcriptions.create({
      model: transcriptionModel,
      file: await toFile(alloy, "alloy.wav"),
      response_format: "verbose_json",
      timestamp_granularities: ["word"],
    });
    expect(transcript.text).toBe(input);
    expect(transcript.words?.map((word) => word.word)).toEqual(["The", "lamp", "is", "lit"]);
  });

  it("accepts every OpenAI voice name, and still refuses a voice no one has", async () => {
    const spoken = await Promise.all(
      openaiVoices.map(async (voice) => {
        const response = await client.audio.speech.create({
          model: "reel-voice-1",
          voice,
          input: "Hi.",
          response_format: "pcm",
        });
        return (await response.arrayBuffer()).byteLength;
      }),
    );
    for (const bytes of spoken) expect(bytes).toBeGreaterThan(1000);
    await expect(
      client.audio.speech.create({ model: "reel-voice-1", voice: "robot", input: "Hi." }),
    ).rejects.toMatchObject({ status: 400, param: "voice" });
  });
});

describe("a profile's media models as listed", () => {
  it("lists the profile's own limits (null where unknown); its voices, when named, are the only ones", async () => {
    const simulator = await startSimulator({
      profile: {
        image_models: { "img-1": { sizes: ["512x512"] } },
        speech_models: {
          "tts-narrow": { voices: ["verse", "nova"], price: { per_1000_characters: 30 } },
          "tts-open": null,
        },
        transcription_models: { "stt-1": { word_timestamps: false } },
      },
    });
    try {
      const client = clientOf(simulator);
      const models = await listAll(client);
      expect(models.find((model) => model.id === "img-1")).toMatchObject({
        type: "image",
        image: { sizes: ["512x512"], max_references: null, max_images: null, price: null },
      });
      expect(models.find((model) => model.id === "tts-open")).toMatchObject({
        type: "speech",
        speech: { voices: null, formats: null, price: null },
      });
      expect(models.find((model) => model.id === "stt-1")).toMatchObject({
        type: "transcription",
        transcription: { word_timestamps: false, granularities: ["segment"], price: null },
      });
      const listed = listedModels(models);
      expect(listed.described.speech_models).toEqual([
        { id: "tts-narrow", voices: ["verse", "nova"], price: { per1000Characters: 30 } },
        { id: "tts-open" },
      ]);
      // A profile that names its voices restricts them: alloy is refused there...
      await expect(
        client.audio.speech.create({ model: "tts-narrow", voice: "alloy", input: "Hi." }),
      ).rejects.toMatchObject({ status: 400, param: "voice" });
      const verse = await client.audio.speech.create({
        model: "tts-narrow",
        voice: "verse",
        input: "Hi.",
        response_format: "wav",
      });
      expect((await verse.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      // ...one that leaves them unknown takes OpenAI's names.
      const open = await client.audio.speech.create({
        model: "tts-open",
        voice: "alloy",
        input: "Hi.",
        response_format: "wav",
      });
      expect((await open.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    } finally {
      await simulator.close();
    }
  });
});
