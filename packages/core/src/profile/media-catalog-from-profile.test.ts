import { describe, expect, it } from "vitest";
import {
  estimateImageCredits,
  estimateSpeechCredits,
  estimateTranscriptionCredits,
  imageModelsFromProfile,
  speechModelsFromProfile,
  transcriptionModelsFromProfile,
} from "./media-catalog-from-profile.js";
import type { ProviderProfile } from "./profile-types.js";
import { validateProfile } from "./validate-profile.js";

const profile: ProviderProfile = {
  image_models: {
    "img-1": {
      sizes: ["1024x1024", "1536x1024"],
      max_references: 4,
      max_images: 2,
      price: { per_image: 4 },
    },
    "img-unknown": null,
  },
  speech_models: {
    "tts-1": {
      voices: ["alloy", "verse"],
      formats: ["mp3", "wav"],
      price: { per_1000_characters: 15 },
    },
  },
  transcription_models: { "stt-1": { word_timestamps: true, price: { per_minute: 6 } } },
};

describe("image, speech and transcription models of a profile", () => {
  it("are accepted by the schema and read into camelCase specs", () => {
    expect(validateProfile(profile)).toEqual([]);
    expect(imageModelsFromProfile(profile)).toEqual([
      {
        id: "img-1",
        sizes: ["1024x1024", "1536x1024"],
        maxReferences: 4,
        maxImages: 2,
        price: { perImage: 4 },
      },
      { id: "img-unknown" },
    ]);
    expect(speechModelsFromProfile(profile)).toEqual([
      {
        id: "tts-1",
        voices: ["alloy", "verse"],
        formats: ["mp3", "wav"],
        price: { per1000Characters: 15 },
      },
    ]);
    expect(transcriptionModelsFromProfile(profile)).toEqual([
      { id: "stt-1", wordTimestamps: true, price: { perMinute: 6 } },
    ]);
  });

  it("refuse bad fields with a pointer to each", () => {
    const problems = validateProfile({
      image_models: { "img-1": { sizes: ["big"], max_references: -1, price: { per_clip: 1 } } },
      speech_models: { "tts-1": { voices: [], formats: ["ogg"] } },
      transcription_models: { "stt-1": { word_timestamps: "yes" } },
    });
    const pointers = problems.map((problem) => problem.pointer).sort();
    expect(pointers).toEqual([
      "/image_models/img-1/max_references",
      "/image_models/img-1/price/per_clip",
      "/image_models/img-1/sizes/0",
      "/speech_models/tts-1/formats/0",
      "/speech_models/tts-1/voices",
      "/transcription_models/stt-1/word_timestamps",
    ]);
    expect(problems.find((problem) => problem.pointer.endsWith("formats/0"))?.message).toMatch(
      /mp3.*wav/,
    );
  });

  it("mark a speech model whose provider's answer times the words (no transcription is planned)", () => {
    const models = speechModelsFromProfile({
      providers: { voice: { dialect: "elevenlabs", api_key_env: ["VOICE_KEY"] } },
      speech_models: { eleven_multilingual_v2: { provider: "voice" }, "tts-1": null },
    });
    expect(models).toEqual([{ id: "eleven_multilingual_v2", wordTimings: true }, { id: "tts-1" }]);
    // The service's dialect counts for a model that names no provider.
    const served = speechModelsFromProfile({
      service: { dialect: "elevenlabs" },
      speech_models: { eleven_v3: null },
    });
    expect(served).toEqual([{ id: "eleven_v3", wordTimings: true }]);
  });

  it("price requests, rounded up, and say undefined when the price is unknown", () => {
    const [image] = imageModelsFromProfile(profile);
    const [speech] = speechModelsFromProfile(profile);
    const [transcription] = transcriptionModelsFromProfile(profile);
    if (!image || !speech || !transcription) throw new Error("models missing");
    expect(estimateImageCredits(image, 3)).toBe(12);
    expect(estimateSpeechCredits(speech, 1001)).toBe(16);
    expect(estimateTranscriptionCredits(transcription, 61)).toBe(7);
    expect(estimateImageCredits({ id: "x" }, 3)).toBeUndefined();
  });

  it("price requests in another unit exactly: $0.05 an image is 0.05 usd, not 1", () => {
    expect(estimateImageCredits({ id: "flux", price: { perImage: 0.05 } }, 1, "usd")).toBe(0.05);
    expect(estimateImageCredits({ id: "flux", price: { perImage: 0.05 } }, 3, "usd")).toBe(0.15);
    expect(estimateImageCredits({ id: "flux", price: { perImage: 0.05 } }, 1)).toBe(1);
    expect(
      estimateSpeechCredits({ id: "kokoro", price: { per1000Characters: 15 } }, 20, "usd"),
    ).toBe(0.3);
    expect(
      estimateTranscriptionCredits({ id: "stt", price: { perMinute: 0.006 } }, 90, "usd"),
    ).toBe(0.009);
  });
});
