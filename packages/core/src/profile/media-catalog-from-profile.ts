import type { SpeechModelSpec } from "../audio/speech-model-spec.js";
import type { TranscriptionModelSpec } from "../audio/transcription-model-spec.js";
import type { ImageModelSpec } from "../images/image-model-spec.js";
import { chargeInUnit } from "../prices/charge-in-unit.js";
import { type ProviderEntry, providers } from "../providers/registry.js";
import { modelDialect } from "./model-dialect.js";
import type {
  ProfileImageModel,
  ProfileSpeechModel,
  ProfileTranscriptionModel,
  ProviderProfile,
} from "./profile-types.js";

function entries<T>(models: Record<string, T | null> | undefined): [string, T | null][] {
  return Object.entries(models ?? {});
}

/**
 * The image models of a (validated) profile, in the order written.
 *
 * @example
 * imageModelsFromProfile({ image_models: { "img-1": { sizes: ["1024x1024"], max_references: 4, price: { per_image: 4 } } } });
 * // [{ id: "img-1", sizes: ["1024x1024"], maxReferences: 4, price: { perImage: 4 } }]
 */
export function imageModelsFromProfile(profile: ProviderProfile): ImageModelSpec[] {
  return entries<ProfileImageModel>(profile.image_models).map(([id, model]) => {
    const spec: ImageModelSpec = { id };
    if (model?.description !== undefined) spec.description = model.description;
    if (model?.sizes) spec.sizes = model.sizes;
    if (typeof model?.max_references === "number") spec.maxReferences = model.max_references;
    if (typeof model?.max_images === "number") spec.maxImages = model.max_images;
    if (typeof model?.price?.per_image === "number")
      spec.price = { perImage: model.price.per_image };
    return spec;
  });
}

/**
 * The speech models of a (validated) profile, in the order written.
 *
 * @example
 * speechModelsFromProfile({ speech_models: { "tts-1": { voices: ["alloy"], price: { per_1000_characters: 15 } } } });
 * // [{ id: "tts-1", voices: ["alloy"], price: { per1000Characters: 15 } }]
 */
export function speechModelsFromProfile(profile: ProviderProfile): SpeechModelSpec[] {
  return entries<ProfileSpeechModel>(profile.speech_models).map(([id, model]) => {
    const spec: SpeechModelSpec = { id };
    if (model?.description !== undefined) spec.description = model.description;
    if (model?.voices) spec.voices = model.voices;
    if (model?.formats) spec.formats = model.formats;
    if (typeof model?.price?.per_1000_characters === "number")
      spec.price = { per1000Characters: model.price.per_1000_characters };
    const dialect = modelDialect(profile, model);
    const speech = Object.hasOwn(providers, dialect)
      ? (providers as Record<string, ProviderEntry>)[dialect]?.speech
      : undefined;
    if (speech?.givesWordTimings) spec.wordTimings = true;
    return spec;
  });
}

/**
 * The transcription models of a (validated) profile, in the order written.
 *
 * @example
 * transcriptionModelsFromProfile({ transcription_models: { "whisper-1": { word_timestamps: true } } });
 * // [{ id: "whisper-1", wordTimestamps: true }]
 */
export function transcriptionModelsFromProfile(profile: ProviderProfile): TranscriptionModelSpec[] {
  return entries<ProfileTranscriptionModel>(profile.transcription_models).map(([id, model]) => {
    const spec: TranscriptionModelSpec = { id };
    if (model?.description !== undefined) spec.description = model.description;
    if (typeof model?.word_timestamps === "boolean") spec.wordTimestamps = model.word_timestamps;
    if (typeof model?.price?.per_minute === "number")
      spec.price = { perMinute: model.price.per_minute };
    return spec;
  });
}

/**
 * What `count` images cost, or undefined when the model's price is unknown: whole credits
 * (rounded up), or the exact amount when `unit` names the price's own unit (usd, eur, …).
 *
 * @example
 * estimateImageCredits({ id: "img", price: { perImage: 4 } }, 3); // 12
 * estimateImageCredits({ id: "flux", price: { perImage: 0.05 } }, 1, "usd"); // 0.05
 */
export function estimateImageCredits(
  spec: ImageModelSpec,
  count: number,
  unit?: string,
): number | undefined {
  return spec.price ? chargeInUnit(spec.price.perImage * count, unit) : undefined;
}

/**
 * What speaking `characters` characters costs (whole credits rounded up, or exact in `unit`),
 * or undefined when unknown.
 *
 * @example
 * estimateSpeechCredits({ id: "tts", price: { per1000Characters: 15 } }, 120); // 2
 * estimateSpeechCredits({ id: "kokoro", price: { per1000Characters: 15 } }, 120, "usd"); // 1.8
 */
export function estimateSpeechCredits(
  spec: SpeechModelSpec,
  characters: number,
  unit?: string,
): number | undefined {
  return spec.price
    ? chargeInUnit((spec.price.per1000Characters * characters) / 1000, unit)
    : undefined;
}

/**
 * What transcribing `seconds` of audio costs (whole credits rounded up, or exact in `unit`),
 * or undefined when unknown.
 *
 * @example
 * estimateTranscriptionCredits({ id: "stt", price: { perMinute: 6 } }, 90); // 9
 * estimateTranscriptionCredits({ id: "stt", price: { perMinute: 0.006 } }, 90, "usd"); // 0.009
 */
export function estimateTranscriptionCredits(
  spec: TranscriptionModelSpec,
  seconds: number,
  unit?: string,
): number | undefined {
  return spec.price ? chargeInUnit((spec.price.perMinute * seconds) / 60, unit) : undefined;
}
