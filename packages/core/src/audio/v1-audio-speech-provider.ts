import { readAll } from "../media-files/save-bytes.js";
import type { SpeechProvider } from "../providers/speech-provider.js";
import type { VideoProvider } from "../providers/video-provider.js";

/**
 * The speech side of a provider that speaks the interface's `POST /v1/audio/speech` (OpenAI's
 * shape: JSON in, audio bytes out, no word timings), with the auth and idempotency header of
 * its video side.
 *
 * @example
 * ```ts
 * export const openaiSpeechProvider = createV1AudioSpeechProvider(openaiVideoProvider);
 * ```
 */
export function createV1AudioSpeechProvider(
  video: Pick<
    VideoProvider,
    "name" | "description" | "keyEnv" | "defaultBaseURL" | "authHeaders" | "idempotencyHeader"
  >,
): SpeechProvider {
  return {
    name: video.name,
    description: video.description,
    keyEnv: video.keyEnv,
    ...(video.defaultBaseURL ? { defaultBaseURL: video.defaultBaseURL } : {}),
    priceUnit: "characters",
    givesWordTimings: false,
    idempotencyHeader: video.idempotencyHeader,
    authHeaders: (apiKey) => video.authHeaders(apiKey),
    problems: () => [],
    async synthesize({ transport }, { params, idempotencyKey, request }) {
      const response = await transport.stream({
        method: "POST",
        path: "/v1/audio/speech",
        body: params,
        accept: "*/*",
        options: request,
        submission: { idempotencyKey, request: "POST /v1/audio/speech" },
      });
      const type = response.headers["content-type"];
      const bytes = await readAll(transport, response);
      return {
        bytes,
        contentType: Array.isArray(type) ? type[0] : type,
        requestId: response.requestId,
      };
    },
  };
}
