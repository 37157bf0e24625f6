import type {
  ProfileImageModel,
  ProfileSpeechModel,
  ProfileTranscriptionModel,
  ProviderProfile,
} from "@reelsmith/core/profile";
import {
  type ImageModelInfo,
  type SpeechModelInfo,
  type TranscriptionModelInfo,
  transcriptFormats,
} from "./media-models.js";

/**
 * An image, speech or transcription model as `/v1/models` lists it: its `type`, and under the
 * type's name its limits and price in a profile's own (snake_case) words, `null` where unknown,
 * so a client reads it as a profile's model of that section. A transcription model also says
 * its `granularities` (`timestamp_granularities[]`) and `formats` (`response_format`), words of
 * the simulator's own that a profile does not hold.
 */
export type ListedMediaModel =
  | { id: string; type: "image"; image: ProfileImageModel }
  | { id: string; type: "speech"; speech: ProfileSpeechModel }
  | {
      id: string;
      type: "transcription";
      transcription: ProfileTranscriptionModel & {
        granularities: string[] | null;
        formats: string[];
      };
    };

type SpeechFormat = NonNullable<ProfileSpeechModel["formats"]>[number];

const granularitiesOf = (wordTimestamps: boolean | null | undefined) =>
  wordTimestamps === undefined || wordTimestamps === null
    ? null
    : wordTimestamps
      ? ["segment", "word"]
      : ["segment"];

/**
 * The simulator's own media models as listed: every limit and price known.
 * @example listedMediaOf(imageModels, speechModels, transcriptionModels)[0]?.type // "image"
 */
export function listedMediaOf(
  images: readonly ImageModelInfo[],
  speech: readonly SpeechModelInfo[],
  transcription: readonly TranscriptionModelInfo[],
): ListedMediaModel[] {
  return [
    ...images.map((model) => ({
      id: model.id,
      type: "image" as const,
      image: {
        sizes: [...model.sizes],
        max_references: model.maxReferences,
        max_images: model.maxImages,
        price: { per_image: model.creditsPerImage },
      },
    })),
    ...speech.map((model) => ({
      id: model.id,
      type: "speech" as const,
      speech: {
        voices: [...model.voices],
        formats: model.formats as SpeechFormat[],
        price: { per_1000_characters: model.creditsPer1000Characters },
      },
    })),
    ...transcription.map((model) => ({
      id: model.id,
      type: "transcription" as const,
      transcription: {
        word_timestamps: model.wordTimestamps,
        granularities: granularitiesOf(model.wordTimestamps),
        formats: [...transcriptFormats],
        price: { per_minute: model.creditsPerMinute },
      },
    })),
  ];
}

/**
 * A profile's media models as listed: the profile's own fields, `null` where it leaves them
 * unknown (the simulator then serves its own defaults, but does not claim them as the model's).
 * @example listedMediaOfProfile({ speech_models: { "tts-1": { voices: ["alloy"] } } })[0] // { id: "tts-1", type: "speech", speech: { voices: ["alloy"], formats: null, price: null } }
 */
export function listedMediaOfProfile(profile: ProviderProfile): ListedMediaModel[] {
  const entries = <T>(section: Record<string, T | null> | undefined) =>
    Object.entries(section ?? {});
  return [
    ...entries(profile.image_models).map(([id, model]) => ({
      id,
      type: "image" as const,
      image: {
        sizes: model?.sizes ?? null,
        max_references: model?.max_references ?? null,
        max_images: model?.max_images ?? null,
        price: model?.price ?? null,
      },
    })),
    ...entries(profile.speech_models).map(([id, model]) => ({
      id,
      type: "speech" as const,
      speech: {
        voices: model?.voices ?? null,
        formats: model?.formats ?? null,
        price: model?.price ?? null,
      },
    })),
    ...entries(profile.transcription_models).map(([id, model]) => ({
      id,
      type: "transcription" as const,
      transcription: {
        word_timestamps: model?.word_timestamps ?? null,
        granularities: granularitiesOf(model?.word_timestamps),
        formats: [...transcriptFormats],
        price: model?.price ?? null,
      },
    })),
  ];
}
