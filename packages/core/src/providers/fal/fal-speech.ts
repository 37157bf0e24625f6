import { APIError } from "../../errors/api-error.js";
import type { RequestProblem } from "../../errors/invalid-request-error.js";
import { accessOf } from "../../http/provider-access.js";
import type { SpeechProvider } from "../speech-provider.js";
import type { FalFile } from "./fal-api-types.js";
import { falApp } from "./fal-endpoint.js";
import { falQueueCall } from "./fal-queue-call.js";
import { falVideoProvider } from "./fal-video.js";

/**
 * The input field each fal speech endpoint reads its text from (Kokoro's `prompt`,
 * ElevenLabs' `text`); an endpoint not listed here is sent `text`.
 */
export const falSpeechTextFields: Readonly<Record<string, string>> = Object.freeze({
  "fal-ai/kokoro/american-english": "prompt",
  "fal-ai/kokoro/british-english": "prompt",
  "fal-ai/elevenlabs/tts/multilingual-v2": "text",
  "fal-ai/elevenlabs/tts/turbo-v2.5": "text",
});

/** `GET {queue}/{owner}/{alias}/requests/{id}` of a speech endpoint: `{ audio: { url, … } }`. */
interface FalSpeechResult {
  audio?: FalFile;
  [key: string]: unknown;
}

/**
 * fal's text-to-speech endpoints through its queue (`POST /{endpoint}`, e.g.
 * `fal-ai/kokoro/american-english` with `{ prompt, voice, speed }` or
 * `fal-ai/elevenlabs/tts/multilingual-v2` with `{ text, voice, speed }`), then
 * `…/requests/{id}/status` until `COMPLETED`, then the output's `audio.url` (fal's CDN),
 * downloaded. MP3 only; no word timings (the runner transcribes for them); no idempotency key:
 * a request whose answer was lost is never sent again.
 *
 * @example
 * ```ts
 * await falSpeechProvider.synthesize({ transport }, { params: { model: "fal-ai/kokoro/american-english", voice: "af_heart", input: "Hello." }, idempotencyKey, spec: undefined, request: {} });
 * ```
 */
export const falSpeechProvider: SpeechProvider = {
  ...accessOf(falVideoProvider),
  priceUnit: "characters",
  givesWordTimings: false,
  formats: ["mp3"],
  problems(params) {
    const problems: RequestProblem[] = [];
    try {
      falApp(params.model);
    } catch (error) {
      problems.push({ field: "model", message: (error as Error).message });
    }
    if (params.input.trim() === "") {
      problems.push({ field: "input", message: "fal speaks no empty text: give the item words" });
    }
    if (params.response_format !== undefined && params.response_format !== "mp3") {
      problems.push({
        field: "response_format",
        message: `fal's speech endpoints answer mp3; got ${params.response_format}. Leave response_format out (or mp3)`,
      });
    }
    if (params.instructions !== undefined) {
      problems.push({
        field: "instructions",
        message: "fal's speech endpoints take no instructions; pick the delivery with the voice",
      });
    }
    return problems;
  },
  async synthesize({ transport }, { params, idempotencyKey, request }) {
    const textField = falSpeechTextFields[params.model] ?? "text";
    const input: Record<string, unknown> = { [textField]: params.input, voice: params.voice };
    if (params.speed !== undefined) input.speed = params.speed;
    const { result, requestId } = await falQueueCall<FalSpeechResult>(transport, {
      endpoint: params.model,
      input,
      idempotencyKey,
      request,
    });
    const url = result?.audio?.url;
    if (typeof url !== "string" || url === "")
      throw new APIError(
        `fal's result of ${params.model} holds no \`audio.url\`: is it a speech endpoint?`,
        {
          code: "invalid_response",
          requestId,
        },
      );
    const download = await transport.stream({ method: "GET", path: url, options: request });
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of download.body) chunks.push(chunk as Buffer);
    } finally {
      download.release();
    }
    return {
      bytes: new Uint8Array(Buffer.concat(chunks)),
      contentType: result?.audio?.content_type ?? "audio/mpeg",
      requestId,
    };
  },
};
