import { randomUUID } from "node:crypto";
import type { ResolvedConfig } from "../client/config.js";
import { refuseRequest } from "../errors/refuse-request.js";
import type { RequestOptions } from "../http/request-options.js";
import type { Transport } from "../http/transport.js";
import {
  speechRequestProblems,
  transcriptionRequestProblems,
} from "../media-files/media-request-problems.js";
import { saveBytes } from "../media-files/save-bytes.js";
import { speechProvider, transcriptionProvider } from "../providers/registry.js";
import type { SpeechProvider } from "../providers/speech-provider.js";
import type { TranscriptionProvider } from "../providers/transcription-provider.js";
import type {
  SpeechParams,
  SpeechResult,
  TranscribeParams,
  TranscriptionResult,
} from "./audio-types.js";
import type { SpeechModelSpec } from "./speech-model-spec.js";
import type { TranscriptionModelSpec } from "./transcription-model-spec.js";

/** Options of `audio.speech()`. */
export interface SpeechOptions extends RequestOptions {
  /** Write the audio to this file (through a temp file beside it) instead of returning its bytes. */
  to?: string;
  /** Sent as `Idempotency-Key`; a random UUID when absent (see `images.generate()`). */
  idempotencyKey?: string;
}

/** Options of `audio.transcribe()`. */
export interface TranscribeOptions extends RequestOptions {
  idempotencyKey?: string;
}

/**
 * `client.audio`: speech and transcription through the client's provider (its registry
 * entry's `speech` side: the interface's `POST /v1/audio/speech`, ElevenLabs' text-to-speech
 * with timestamps, …; and its `transcription` side: the interface's
 * `POST /v1/audio/transcriptions`, …), with word timings where the provider gives them.
 *
 * @example
 * ```ts
 * await client.audio.speech({ model: "tts-1", voice: "alloy", input: "Hello.", response_format: "wav" }, { to: "hello.wav" });
 * const { words } = await client.audio.transcribe({ model: "whisper-1", file: "hello.wav", timestamp_granularities: ["word"] });
 * ```
 */
export class Audio {
  constructor(
    private readonly transport: Transport<ResolvedConfig>,
    private readonly speechModels: readonly SpeechModelSpec[] | null | undefined,
    private readonly transcriptionModels: readonly TranscriptionModelSpec[] | null | undefined,
  ) {}

  /** The speech side of the client's provider (a TypeError when it has none). */
  get speechProvider(): SpeechProvider {
    return speechProvider(this.transport.config.dialect);
  }

  /** The transcription side of the client's provider (a TypeError when it has none). */
  get transcriptionProvider(): TranscriptionProvider {
    return transcriptionProvider(this.transport.config.dialect);
  }

  /**
   * Whether a speech request whose answer was lost may be sent again under its key: only
   * where the provider takes an idempotency key and the service honours it
   * (`honoursIdempotencyKeys`).
   */
  get speechHonoursIdempotencyKeys(): boolean {
    return (
      this.transport.config.honoursIdempotencyKeys &&
      this.speechProvider.idempotencyHeader !== undefined
    );
  }

  /**
   * Speak `input`; the audio's bytes, or the file written with `{ to }`, and the words'
   * timings where the provider gives them. Checked against the client's speech models and
   * the provider's own rules before anything is sent.
   */
  async speech(params: SpeechParams, options: SpeechOptions = {}): Promise<SpeechResult> {
    const provider = this.speechProvider;
    const spec = this.speechModels?.find((model) => model.id === params.model);
    refuseRequest([
      ...speechRequestProblems(params, this.speechModels),
      ...provider.problems(params, spec),
    ]);
    const { to, idempotencyKey = randomUUID(), ...request } = options;
    const spoken = await provider.synthesize(
      { transport: this.transport },
      { params, idempotencyKey, spec, request },
    );
    const result: SpeechResult = {
      size: spoken.bytes.length,
      contentType: spoken.contentType,
      requestId: spoken.requestId,
    };
    if (spoken.words) result.words = spoken.words;
    if (to !== undefined) result.file = await saveBytes(to, spoken.bytes);
    else result.bytes = spoken.bytes;
    return result;
  }

  /**
   * Transcribe audio; with `timestamp_granularities: ["word"]` each word's start and end
   * (`response_format` then defaults to `verbose_json`).
   */
  async transcribe(
    params: TranscribeParams,
    options: TranscribeOptions = {},
  ): Promise<TranscriptionResult> {
    const granularities = params.timestamp_granularities ?? [];
    const format = params.response_format ?? (granularities.length > 0 ? "verbose_json" : "json");
    refuseRequest(
      transcriptionRequestProblems(
        { ...params, response_format: format },
        this.transcriptionModels,
      ),
    );
    const provider = this.transcriptionProvider;
    const spec = this.transcriptionModels?.find((model) => model.id === params.model);
    refuseRequest(provider.problems(params, spec));
    const { idempotencyKey = randomUUID(), ...request } = options;
    return provider.transcribe(
      { transport: this.transport },
      { params: { ...params, response_format: format }, idempotencyKey, spec, request },
    );
  }
}
