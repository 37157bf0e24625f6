import { describe, expect, it } from "vitest";
import { listedModels, mediaModelsListed } from "./listed-models.js";

const entry = (id: string, fields: Record<string, unknown>) => ({
  id,
  object: "model",
  created: 1,
  owned_by: "acme",
  ...fields,
});

describe("listedModels", () => {
  it("reads every listed type into its profile section, media models with their limits", () => {
    const listed = listedModels([
      entry("chat-1", { type: "chat" }),
      entry("img-1", {
        type: "image",
        image: {
          sizes: ["1024x1024", "512x512"],
          max_references: 4,
          max_images: 2,
          price: { per_image: 4 },
        },
      }),
      entry("voice-1", {
        type: "speech",
        speech: {
          voices: ["alloy", "ava"],
          formats: ["mp3", "wav"],
          price: { per_1000_characters: 15 },
        },
      }),
      entry("stt-1", {
        type: "transcription",
        transcription: {
          word_timestamps: true,
          granularities: ["segment", "word"],
          price: { per_minute: 6 },
        },
      }),
      entry("bare-voice", { type: "speech" }),
      entry("untyped", {}),
    ]);
    expect(Object.fromEntries(listed.sectionOf)).toEqual({
      "chat-1": "chat_models",
      "img-1": "image_models",
      "voice-1": "speech_models",
      "stt-1": "transcription_models",
      "bare-voice": "speech_models",
    });
    expect(listed.described.image_models).toEqual([
      {
        id: "img-1",
        sizes: ["1024x1024", "512x512"],
        maxReferences: 4,
        maxImages: 2,
        price: { perImage: 4 },
      },
    ]);
    // Listed without its limits: in the section, but not described.
    expect(listed.described.speech_models).toEqual([
      {
        id: "voice-1",
        voices: ["alloy", "ava"],
        formats: ["mp3", "wav"],
        price: { per1000Characters: 15 },
      },
    ]);
    // `granularities` is the service's own word, not a profile's: skipped, the rest read.
    expect(listed.described.transcription_models).toEqual([
      { id: "stt-1", wordTimestamps: true, price: { perMinute: 6 } },
    ]);
    expect(listed.described.video_models).toEqual([]);
  });

  it("skips a media entry whose known field has a wrong value, and metadata of another type", () => {
    expect(
      mediaModelsListed(
        [
          entry("img-bad", { type: "image", image: { sizes: "big" } }),
          entry("img/odd~id", { type: "image", image: { sizes: ["256x256"], style: "x" } }),
          entry("chat-2", { type: "chat", image: { sizes: ["256x256"] } }),
        ],
        "image",
      ),
    ).toEqual([{ id: "img/odd~id", sizes: ["256x256"] }]);
  });
});
