import type { TranscribeParams, TranscriptionResult } from "../audio/audio-types.js";
import type { TranscriptionModelSpec } from "../audio/transcription-model-spec.js";
import type { RequestProblem } from "../errors/invalid-request-error.js";
import type { ProviderAccess } from "../http/provider-access.js";
import type { RequestOptions } from "../http/request-options.js";
import type { ProviderContext } from "./video-provider.js";

/** One transcription to make: the checked params, the caller's key, the model's spec if known. */
export interface TranscriptionRequest {
  /** The params, `response_format` resolved (`verbose_json` when word times are asked for). */
  params: TranscribeParams & { response_format: string };
  /** Chosen by the caller and journaled before the request leaves; sent where the provider honours one. */
  idempotencyKey: string;
  spec: TranscriptionModelSpec | undefined;
  request: RequestOptions;
}

/**
 * The transcription side of a provider: how core turns audio into text, and each word's start
 * and end where asked. Each lives in its provider's folder under `core/src/providers/<name>/`
 * and is listed once in the registry as the entry's `transcription`; nothing outside its
 * folder names it.
 *
 * @example
 * ```ts
 * const { words } = await transcriptionProvider("reference").transcribe({ transport }, { params, idempotencyKey, spec, request: {} });
 * ```
 */
export interface TranscriptionProvider extends ProviderAccess {
  /** Its own checks of a request before anything is sent (the generic ones are core's). */
  problems(params: TranscribeParams, spec: TranscriptionModelSpec | undefined): RequestProblem[];
  /** Sends the audio once (the transport resends only what cannot have been carried out). */
  transcribe(
    context: ProviderContext,
    transcription: TranscriptionRequest,
  ): Promise<TranscriptionResult>;
}
