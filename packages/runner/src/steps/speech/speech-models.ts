/**
 * The speech and transcription models a kind of this folder knows, read from the run's
 * generic catalogs (`catalogs.speech_models`, `catalogs.transcription_models`). Entries come
 * from a provider profile (core's `speechModelsFromProfile`: `price.per1000Characters`) or
 * from the built-in simulator's catalog (`creditsPer1000Characters`): both are read here, so
 * no one else has to convert them. A field an entry leaves out is unknown and not checked.
 */

import { chargeInUnit } from "@reelsmith/core/catalog";

/** A speech model's limits and price, as far as they are known. */
export interface SpeechModelLimits {
  id: string;
  voices?: readonly string[];
  /** `response_format`s; the first is the model's default. */
  formats?: readonly string[];
  /** Price per 1,000 characters of input (in credits, rounded up per request, or its own unit). */
  per1000Characters?: number;
  /** Longest input it speaks, in characters, when declared. */
  maxInputCharacters?: number;
  /** Its answer times the words (its provider's alignment): no transcription is needed. */
  wordTimings?: boolean;
}

/** A transcription model's word timings and price, as far as they are known. */
export interface TranscriptionModelLimits {
  id: string;
  wordTimestamps?: boolean;
  /** Price per minute of audio (in credits, rounded up per request, or its own unit). */
  perMinute?: number;
}

/** The catalogs as the runner passes them: lists of models by the profile's section name. */
export type Catalogs = Readonly<Record<string, readonly { id: string }[]>> | undefined;

const numberOr = (...values: unknown[]): number | undefined =>
  values.find((value): value is number => typeof value === "number" && Number.isFinite(value));

const strings = (value: unknown): readonly string[] | undefined =>
  Array.isArray(value) && value.every((entry) => typeof entry === "string") ? value : undefined;

/**
 * The speech models of the catalogs, or undefined when none are known (nothing is checked).
 * @example speechModelsOf({ speech_models: [{ id: "tts-1", voices: ["alloy"] }] })?.[0]?.voices // ["alloy"]
 */
export function speechModelsOf(catalogs: Catalogs): SpeechModelLimits[] | undefined {
  const list = catalogs?.speech_models;
  if (!list) return undefined;
  return list.map((entry) => {
    const raw = entry as Record<string, unknown>;
    const price = (raw.price ?? {}) as Record<string, unknown>;
    const limits: SpeechModelLimits = { id: entry.id };
    const voices = strings(raw.voices);
    if (voices) limits.voices = voices;
    const formats = strings(raw.formats);
    if (formats) limits.formats = formats;
    const per1000 = numberOr(price.per1000Characters, raw.creditsPer1000Characters);
    if (per1000 !== undefined) limits.per1000Characters = per1000;
    const most = numberOr(raw.maxInputCharacters);
    if (most !== undefined) limits.maxInputCharacters = most;
    if (raw.wordTimings === true) limits.wordTimings = true;
    return limits;
  });
}

/**
 * The transcription models of the catalogs, or undefined when none are known.
 * @example transcriptionModelsOf({ transcription_models: [{ id: "whisper-1", wordTimestamps: true }] })?.[0]?.wordTimestamps // true
 */
export function transcriptionModelsOf(catalogs: Catalogs): TranscriptionModelLimits[] | undefined {
  const list = catalogs?.transcription_models;
  if (!list) return undefined;
  return list.map((entry) => {
    const raw = entry as Record<string, unknown>;
    const price = (raw.price ?? {}) as Record<string, unknown>;
    const limits: TranscriptionModelLimits = { id: entry.id };
    if (typeof raw.wordTimestamps === "boolean") limits.wordTimestamps = raw.wordTimestamps;
    const perMinute = numberOr(price.perMinute, raw.creditsPerMinute);
    if (perMinute !== undefined) limits.perMinute = perMinute;
    return limits;
  });
}

/**
 * The transcription model a speech step's word timings come from: the one `words.model`
 * names; else, unless `words: false`, the first model the catalogs offer that gives word
 * timestamps (a profile or the built-in simulator that offers one is used, since the
 * estimate is only a spread over the duration); else none (the timings are estimated).
 * @example wordsModelOf(undefined, { transcription_models: [{ id: "stt", wordTimestamps: true }] }) // "stt"
 */
export function wordsModelOf(words: unknown, catalogs: Catalogs): string | undefined {
  if (words === false) return undefined;
  if (words && typeof words === "object") {
    const model = (words as { model?: unknown }).model;
    if (typeof model === "string" && model !== "") return model;
  }
  return transcriptionModelsOf(catalogs)?.find((model) => model.wordTimestamps !== false)?.id;
}

/**
 * What speaking `characters` characters costs: whole credits, rounded up as the service does,
 * or the exact amount when `unit` names the price's own unit (usd, …); undefined when the
 * price is unknown.
 * @example speechCredits({ id: "tts", per1000Characters: 15 }, 120) // 2
 * @example speechCredits({ id: "kokoro", per1000Characters: 15 }, 120, "usd") // 1.8
 */
export function speechCredits(
  model: SpeechModelLimits | undefined,
  characters: number,
  unit?: string,
): number | undefined {
  return model?.per1000Characters === undefined
    ? undefined
    : chargeInUnit((model.per1000Characters * characters) / 1000, unit);
}

/**
 * What transcribing `seconds` of audio costs: whole credits, rounded up as the service does,
 * or the exact amount when `unit` names the price's own unit; undefined when unknown.
 * @example transcriptionCredits({ id: "stt", perMinute: 6 }, 90) // 9
 * @example transcriptionCredits({ id: "stt", perMinute: 0.006 }, 90, "usd") // 0.009
 */
export function transcriptionCredits(
  model: TranscriptionModelLimits | undefined,
  seconds: number,
  unit?: string,
): number | undefined {
  return model?.perMinute === undefined
    ? undefined
    : chargeInUnit((model.perMinute * seconds) / 60, unit);
}

/**
 * The format of a speech step that names none: wav, unless the model (or its provider) does
 * not answer in wav; then the first format it lists.
 * @example defaultSpeechFormat({ id: "eleven_multilingual_v2", formats: ["mp3"] }) // "mp3"
 */
export function defaultSpeechFormat(
  model: Pick<SpeechModelLimits, "formats"> | undefined,
  providerFormats?: readonly string[],
): string {
  for (const formats of [model?.formats, providerFormats]) {
    if (formats && formats.length > 0 && !formats.includes("wav")) return formats[0] ?? "wav";
  }
  return "wav";
}
