import type { RequestProblem } from "../../errors/invalid-request-error.js";
import type { SpeechProvider } from "../speech-provider.js";
import { type CharacterAlignment, wordsFromAlignment } from "./alignment-words.js";

/**
 * ElevenLabs' text-to-speech models and the longest text each speaks in one request
 * (characters; each is charged per character of the text).
 */
export const elevenlabsModels: Readonly<Record<string, { maxInputCharacters: number }>> =
  Object.freeze({
    eleven_multilingual_v2: { maxInputCharacters: 10_000 },
    eleven_turbo_v2_5: { maxInputCharacters: 40_000 },
    eleven_flash_v2_5: { maxInputCharacters: 40_000 },
    eleven_v3: { maxInputCharacters: 5_000 },
  });

/** The one output format asked for: MP3 at 44.1 kHz, 128 kbit/s (every plan has it). */
const outputFormat = "mp3_44100_128";

/** The body of `POST /v1/text-to-speech/{voice_id}/with-timestamps`'s answer. */
interface WithTimestampsAnswer {
  audio_base64?: unknown;
  alignment?: CharacterAlignment | null;
  normalized_alignment?: CharacterAlignment | null;
}

const isAlignment = (value: unknown): value is CharacterAlignment =>
  typeof value === "object" &&
  value !== null &&
  Array.isArray((value as CharacterAlignment).characters) &&
  Array.isArray((value as CharacterAlignment).character_start_times_seconds) &&
  Array.isArray((value as CharacterAlignment).character_end_times_seconds);

/**
 * ElevenLabs (`xi-api-key`): `POST /v1/text-to-speech/{voice_id}/with-timestamps`, which
 * answers the MP3 as base64 with a per-character alignment of the text; the words' timings
 * are read from it, so captions need no transcription. Charged per character of the text; a
 * synchronous call with no idempotency key, so an answer lost after the request may have
 * arrived is never sent again (the runner reports it unsettled).
 *
 * @example
 * ```ts
 * await elevenlabsSpeechProvider.synthesize({ transport }, { params: { model: "eleven_multilingual_v2", voice: "JBFqnCBsd6RMkjVDRZzb", input: "Hello.", response_format: "mp3" }, idempotencyKey, spec: undefined, request: {} });
 * ```
 */
export const elevenlabsSpeechProvider: SpeechProvider = {
  name: "elevenlabs",
  description: "ElevenLabs: speech with word timings, /v1/text-to-speech, xi-api-key",
  keyEnv: "ELEVENLABS_API_KEY",
  defaultBaseURL: "https://api.elevenlabs.io",
  priceUnit: "characters",
  givesWordTimings: true,
  formats: ["mp3"],
  idempotencyHeader: undefined,
  authHeaders: (apiKey) => ({ "xi-api-key": apiKey }),
  problems(params, spec) {
    const problems: RequestProblem[] = [];
    const model = elevenlabsModels[params.model];
    if (!spec && !model) {
      problems.push({
        field: "model",
        message: `ElevenLabs has no text-to-speech model ${JSON.stringify(params.model)}; use one of ${Object.keys(elevenlabsModels).join(", ")} (or list it under the profile's speech_models)`,
      });
    }
    if (params.response_format !== undefined && params.response_format !== "mp3") {
      problems.push({
        field: "response_format",
        message: `ElevenLabs answers here in mp3 (${outputFormat}); got ${params.response_format}`,
      });
    }
    if (params.speed !== undefined && !(params.speed >= 0.7 && params.speed <= 1.2)) {
      problems.push({
        field: "speed",
        message: `ElevenLabs speaks at a speed from 0.7 to 1.2; got ${params.speed}`,
      });
    }
    if (params.instructions !== undefined) {
      problems.push({
        field: "instructions",
        message:
          "ElevenLabs takes no instructions; write the delivery into the text (eleven_v3 reads audio tags such as [whispers])",
      });
    }
    if (model && params.input.length > model.maxInputCharacters) {
      problems.push({
        field: "input",
        message: `${params.model} speaks at most ${model.maxInputCharacters} characters in one request; got ${params.input.length}. Split it over several items`,
      });
    }
    return problems;
  },
  async synthesize({ transport }, { params, idempotencyKey, request }) {
    const body: Record<string, unknown> = { text: params.input, model_id: params.model };
    if (params.speed !== undefined) body.voice_settings = { speed: params.speed };
    const label = "POST /v1/text-to-speech/{voice_id}/with-timestamps";
    const response = await transport.json<WithTimestampsAnswer>({
      method: "POST",
      path: `/v1/text-to-speech/${encodeURIComponent(params.voice)}/with-timestamps?output_format=${outputFormat}`,
      body,
      options: request,
      submission: { idempotencyKey, request: label },
    });
    const answer = response.data;
    if (typeof answer?.audio_base64 !== "string") {
      throw new TypeError(`${label} answered without audio_base64`);
    }
    const alignment = isAlignment(answer.alignment)
      ? answer.alignment
      : isAlignment(answer.normalized_alignment)
        ? answer.normalized_alignment
        : undefined;
    return {
      bytes: new Uint8Array(Buffer.from(answer.audio_base64, "base64")),
      contentType: "audio/mpeg",
      requestId: response.requestId,
      ...(alignment ? { words: wordsFromAlignment(alignment) } : {}),
    };
  },
};
