import { describe, expect, it } from "vitest";
import { modelCatalogsFromProfile, modelsFromProfile } from "../profile/models-from-profile.js";
import { profileJsonSchema } from "../profile/profile-schema.js";
import { modalities, modalityOfTypeWord, modalitySection, modalitySections } from "./modalities.js";
import { modelKind } from "./model-kind.js";

describe("modalities", () => {
  it("declares each modality once, with its profile section", () => {
    expect(modalities).toEqual(["chat", "video", "image", "speech", "transcription"]);
    expect(modalitySections).toEqual(modalities.map((modality) => `${modality}_models`));
  });

  it("has a section in the profile schema and a profile reader for every modality", () => {
    const properties = (profileJsonSchema as { properties: Record<string, unknown> }).properties;
    for (const modality of modalities) {
      expect(properties[modalitySection(modality)], modality).toBeDefined();
      expect(typeof modelsFromProfile[modality], modality).toBe("function");
    }
  });

  it("reads every type word of a model list as its modality, case-insensitively", () => {
    expect(modalityOfTypeWord("TTS")).toBe("speech");
    expect(modalityOfTypeWord("speech-to-text")).toBe("transcription");
    expect(modalityOfTypeWord("constructor")).toBeUndefined();
    expect(modelKind({ id: "x", type: "images" })).toBe("image");
  });

  it("gives a profile's catalogs for the sections that name models, by section", () => {
    const catalogs = modelCatalogsFromProfile({
      chat_models: {},
      video_models: { "veo-3": { seconds: [4, 8] } },
      speech_models: { "tts-1": { voices: ["alloy"] } },
      transcription_models: { "whisper-1": { word_timestamps: true } },
    });
    expect(Object.keys(catalogs)).toEqual([
      "video_models",
      "speech_models",
      "transcription_models",
    ]);
    expect(catalogs.video_models?.[0]).toEqual({ id: "veo-3", seconds: [4, 8] });
    expect(catalogs.transcription_models?.[0]).toEqual({ id: "whisper-1", wordTimestamps: true });
  });
});
