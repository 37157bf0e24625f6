import type { SpeechParams, TranscriptWord } from "../audio/audio-types.js";
import type { SpeechModelSpec } from "../audio/speech-model-spec.js";
import type { RequestProblem } from "../errors/invalid-request-error.js";
import type { RequestOptions } from "../http/request-options.js";
import type { ProviderContext } from "./video-provider.js";

/** One speech request to make: the checked params, the caller's key, the model's spec if known. */
export interface SpeechSynthesis {
  params: SpeechParams;
  /** Chosen by the caller and journaled before the request leaves; sent where the provider honours one. */
  idempotencyKey: string;
  spec: SpeechModelSpec | undefined;
  request: RequestOptions;
}

/** What a provider answered: the audio, and each word's timing where the provider gives them. */
export interface SynthesizedSpeech {
  bytes: Uint8Array;
  contentType: string | undefined;
  requestId: string | undefined;
  /** The input's words (with their punctuation), timed from the provider's own alignment. */
  words?: TranscriptWord[];
}

/**
 * The speech side of a provider: how core speaks a text with a voice into audio on it. Each
 * lives in its provider's folder under `core/src/providers/<name>/` and is listed once in the
 * registry as the entry's `speech`; nothing outside its folder names it.
 *
 * @example
 * ```ts
 * const provider = speechProvider("elevenlabs");
 * const spoken = await provider.synthesize({ transport }, { params, idempotencyKey, spec, request: {} });
 * ```
 */
export interface SpeechProvider {
  /** The name a profile's `service.dialect` and `serve --dialect` use. */
  readonly name: string;
  /** One line for help texts and the profile schema. */
  readonly description: string;
  /** The environment variable its key is usually in (for docs and starter profiles). */
  readonly keyEnv: string;
  /** Its usual base URL, when it has one. */
  readonly defaultBaseURL?: string;
  /** What its price is counted in: a speech model's price is per 1,000 of these. */
  readonly priceUnit: "characters";
  /** Whether its answer times the words (no transcription is needed for captions). */
  readonly givesWordTimings: boolean;
  /** The formats it answers in, the first its default, when it answers in only some. */
  readonly formats?: readonly string[];
  /** The headers that carry the key (`Authorization: Bearer …`, `xi-api-key: …`). */
  authHeaders(apiKey: string): Record<string, string>;
  /**
   * The header that carries the caller's idempotency key, or undefined when the provider
   * honours none: a paid request is then never resent once it may have reached the server.
   */
  readonly idempotencyHeader: string | undefined;
  /** Its own checks of a request before anything is sent (the generic ones are core's). */
  problems(params: SpeechParams, spec: SpeechModelSpec | undefined): RequestProblem[];
  /** Sends the request once (the transport resends only what cannot have been carried out). */
  synthesize(context: ProviderContext, synthesis: SpeechSynthesis): Promise<SynthesizedSpeech>;
}
