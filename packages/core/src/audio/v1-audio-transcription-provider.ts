import { accessOf, type ProviderAccess } from "../http/provider-access.js";
import { encodeForm } from "../media-files/encode-form.js";
import { readFileInput } from "../media-files/file-input.js";
import { readAll } from "../media-files/save-bytes.js";
import type { TranscriptionProvider } from "../providers/transcription-provider.js";
import type { TranscriptionResult } from "./audio-types.js";

/**
 * The transcription side of a provider that speaks the interface's
 * `POST /v1/audio/transcriptions` (OpenAI's shape: multipart in; `json`, `verbose_json` with
 * words and segments, or text out), with the auth and idempotency header of its other sides.
 *
 * @example
 * ```ts
 * export const openaiTranscriptionProvider = createV1AudioTranscriptionProvider(openaiVideoProvider);
 * ```
 */
export function createV1AudioTranscriptionProvider(access: ProviderAccess): TranscriptionProvider {
  return {
    ...accessOf(access),
    problems: () => [],
    async transcribe({ transport }, { params, idempotencyKey, request }) {
      const format = params.response_format;
      const granularities = params.timestamp_granularities ?? [];
      const file = await readFileInput(params.file, "file", "audio.mp3");
      const body = await encodeForm(
        {
          model: params.model,
          response_format: format,
          "timestamp_granularities[]": granularities.length > 0 ? granularities : undefined,
          language: params.language,
          prompt: params.prompt,
        },
        [["file", file]],
      );
      const response = await transport.stream({
        method: "POST",
        path: "/v1/audio/transcriptions",
        rawBody: body,
        accept: format === "json" || format === "verbose_json" ? "application/json" : "text/plain",
        options: request,
        submission: { idempotencyKey, request: "POST /v1/audio/transcriptions" },
      });
      const text = Buffer.from(await readAll(transport, response)).toString("utf8");
      if (format !== "json" && format !== "verbose_json") {
        return {
          text: format === "text" ? text.replace(/\n$/, "") : text,
          requestId: response.requestId,
        };
      }
      const answer = JSON.parse(text) as Omit<TranscriptionResult, "requestId">;
      const result: TranscriptionResult = {
        text: answer.text ?? "",
        requestId: response.requestId,
      };
      if (answer.language !== undefined) result.language = answer.language;
      if (answer.duration !== undefined) result.duration = answer.duration;
      if (answer.words)
        result.words = answer.words.map(({ word, start, end }) => ({ word, start, end }));
      if (answer.segments) {
        result.segments = answer.segments.map(({ id, start, end, text: segment }) => ({
          id,
          start,
          end,
          text: segment,
        }));
      }
      return result;
    },
  };
}
