/** An image model of the simulator: what it draws and what it costs. */
export interface ImageModelInfo {
  id: string;
  /** `WIDTHxHEIGHT` sizes it draws; the first is the default. */
  sizes: readonly string[];
  /** Most reference images an edit may send (`image[]`). */
  maxReferences: number;
  /** Most images one request may ask for (`n`). */
  maxImages: number;
  /** Credits charged per image made (or its `unit`'s amount). */
  creditsPerImage: number;
  /** The unit its price is in when not credits (a profile's provider `unit:`): billed exactly. */
  unit?: string;
}

/** A speech model of the simulator: its voices, formats and price. */
export interface SpeechModelInfo {
  id: string;
  /** Voice names it accepts. */
  voices: readonly string[];
  /** `response_format`s it answers with; the first is the default. */
  formats: readonly string[];
  /** Credits per 1,000 characters of input (rounded up per request; exact in its `unit`). */
  creditsPer1000Characters: number;
  /** The unit its price is in when not credits (a profile's provider `unit:`): billed exactly. */
  unit?: string;
}

/** A transcription model of the simulator. */
export interface TranscriptionModelInfo {
  id: string;
  /** Whether it answers `timestamp_granularities[]=word` with word timings. */
  wordTimestamps: boolean;
  /** Credits per minute of audio (rounded up per request; exact in its `unit`). */
  creditsPerMinute: number;
  /** The unit its price is in when not credits (a profile's provider `unit:`): billed exactly. */
  unit?: string;
}

/**
 * OpenAI's voice names (`/v1/audio/speech`): the simulator's speech models accept them, each
 * spoken by one of the simulator's voices, so code written for OpenAI's speech API runs
 * unchanged; a profile that names a model's voices accepts only those.
 */
export const openaiVoices: readonly string[] = Object.freeze([
  "alloy",
  "ash",
  "ballad",
  "coral",
  "echo",
  "fable",
  "nova",
  "onyx",
  "sage",
  "shimmer",
  "verse",
]);

/** The simulator's own voices (Flite's, under names of their own). */
export const simulatorVoices: readonly string[] = Object.freeze(["ava", "rowan", "angus", "kal"]);

/** The `response_format`s of the simulator's transcriptions; `json` is the default. */
export const transcriptFormats: readonly string[] = Object.freeze([
  "json",
  "verbose_json",
  "text",
  "srt",
  "vtt",
]);

/** The formats the simulator can encode speech in. */
export const speechFormats: readonly string[] = Object.freeze(["mp3", "wav", "pcm"]);

/**
 * The image models the simulator serves without a profile.
 *
 * @example
 * imageModels[0]?.id; // "reel-image-1"
 */
export const imageModels: readonly ImageModelInfo[] = Object.freeze([
  Object.freeze({
    id: "reel-image-1",
    sizes: Object.freeze(["1024x1024", "1536x1024", "1024x1536", "512x512", "256x256"]),
    maxReferences: 4,
    maxImages: 4,
    creditsPerImage: 4,
  }),
]);

/**
 * The speech models the simulator serves without a profile: Flite's voices under names of
 * their own (`ava`, `rowan`, `angus`, `kal`), then OpenAI's names (`alloy`, …, `verse`), each
 * spoken by one of those four.
 *
 * @example
 * speechModels[0]?.voices.slice(0, 5); // ["ava", "rowan", "angus", "kal", "alloy"]
 */
export const speechModels: readonly SpeechModelInfo[] = Object.freeze([
  Object.freeze({
    id: "reel-voice-1",
    voices: Object.freeze([...simulatorVoices, ...openaiVoices]),
    formats: speechFormats,
    creditsPer1000Characters: 15,
  }),
]);

/**
 * The transcription models the simulator serves without a profile.
 *
 * @example
 * transcriptionModels[0]?.wordTimestamps; // true
 */
export const transcriptionModels: readonly TranscriptionModelInfo[] = Object.freeze([
  Object.freeze({ id: "reel-transcribe-1", wordTimestamps: true, creditsPerMinute: 6 }),
]);

/**
 * The simulator's image, speech and transcription models by the provider profile's section
 * name: what a run on the simulator passes as its `catalogs`.
 * @example mediaCatalogs.speech_models[0]?.id // "reel-voice-1"
 */
export const mediaCatalogs = Object.freeze({
  image_models: imageModels,
  speech_models: speechModels,
  transcription_models: transcriptionModels,
});
